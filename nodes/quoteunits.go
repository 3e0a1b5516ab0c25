package nodes

import (
	"maps"
	"path"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/internal/text"
)

// This file splits a passage into the units an extractive answer may quote
// (the "select" step works on them): sentences of prose, whole list items,
// code blocks with their newlines, and a lead-in sentence ending in ":"
// joined with the list or code block it introduces.

// quoteUnit is a piece of a passage an answer may quote.
type quoteUnit struct {
	text, heading string
	// scope is the unit's heading path ("Git 2.30 Release Notes > Updates
	// since v2.29"): a release's notes are under their title's version,
	// not the one their subheading compares with.
	scope           string
	section, secPos int
	item            bool
	// code is true for a code block or a declaration of a source file: its
	// text keeps its newlines and is shown as code.
	code bool
	// lead is true for a lead-in sentence joined with the list or code block
	// that follows it; the text then spans several lines.
	lead bool
	// entry is the identifier an entry of a const or var block declares,
	// when the unit is that entry cut from its block (entryOf); "" else.
	entry string
	// block is the whole declaration a code unit too long to quote was
	// cut from (codeWindow); "" when the unit is all of it. An entry the
	// question asks for is looked up in all of it, not in the window the
	// question's other words chose.
	block string
	// defines are the terms a definition paragraph of a manual defines:
	// options ("-r rate" / "--max-rate=rate Sets the …" defines -r and
	// --max-rate) or a term above its description ("RESTART IDENTITY").
	// The paragraph is one unit, quoted whole.
	defines []string
	// field is the name of the field the unit is ("Copyright" of
	// "Copyright: 1999-2022 Free Software Foundation, Inc."), in a chunk
	// of fields (see fieldUnits); "" else.
	field string
	// stanza is what the unit's stanza of a Debian copyright file is
	// about (see markStanzas): the whole work, a part, the packaging.
	stanza stanzaScope
	// files are the patterns of the Files field of a part's stanza
	// ("select-zorp*", "src/frob/*"); nil for any other unit.
	files []string
}

// multiline reports whether the unit is shown on lines of its own rather
// than inside a paragraph.
func (u quoteUnit) multiline() bool { return u.code || u.lead }

const (
	// bareLevel is the level of a heading without markup (see
	// looksLikeHeading, releaseHeading): under Markdown's six.
	bareLevel = 7
	// maxLeadItems bounds the list items a lead-in sentence takes along.
	maxLeadItems = 12
	// maxCodeLines bounds a quoted code block; a longer one is cut to the
	// lines around the one that matches the question best.
	maxCodeLines = 16
	// maxDocKept is the longest doc comment a cut declaration quotes whole
	// (codeWindow): half of what the cap leaves beside the declaration's
	// line and two "…", so that the body keeps as many lines as the doc.
	// Set once, not tuned.
	maxDocKept = (maxCodeLines - 3) / 2
	// headingMaxWords is the longest one-line paragraph taken for a heading
	// when the text has no heading markup (HTML and man pages converted to
	// text): "Predeclared identifiers", "Label scopes".
	headingMaxWords = 6
)

var (
	headingLine = regexp.MustCompile(`^\s{0,3}(#{1,6}\s+\S|#{1,6}$)`)
	setextLine  = regexp.MustCompile(`^\s{0,3}(=+|-{2,})\s*$`)
	fenceLine   = regexp.MustCompile("^\\s*(```|~~~)")
	listMarker  = regexp.MustCompile(`^\s*([-*+•]|\d{1,3}[.)])\s+`)
	columnGap   = regexp.MustCompile(`\S(\s{2,}|\t|\s\|\s)\S`)
)

// tableRow reports whether a line is a row of a table: two words apart by
// a column gap (two spaces or more, a tab, " | " outside brackets). Two
// spaces after the end of a sentence are no gap: plain text typed the
// typewriter's way (GNU and Debian documentation, many READMEs) puts them
// between sentences, and a paragraph of it is prose, not a table. A " | "
// inside brackets parts a synopsis's alternatives.
func tableRow(line string) bool {
	for _, loc := range columnGap.FindAllStringIndex(line, -1) {
		if strings.Contains(line[loc[0]:loc[1]], "|") && bracketDepth(line[:loc[0]+1]) > 0 {
			// "ENABLE [ REPLICA | ALWAYS ]": alternatives of a manual's
			// synopsis, not columns.
			continue
		}
		if !sentenceSpace(line[:loc[0]+1], line[loc[0]+1:loc[1]-1]) {
			return true
		}
	}
	return false
}

// sentenceSpace reports whether gap, the white space after before, is the
// space between two sentences: spaces only, after a ".", "!" or "?" (a
// closing quote or bracket after it allowed).
func sentenceSpace(before, gap string) bool {
	if strings.Trim(gap, " ") != "" {
		return false
	}
	before = strings.TrimRight(before, `"')]`)
	return strings.HasSuffix(before, ".") || strings.HasSuffix(before, "!") || strings.HasSuffix(before, "?")
}

// unwrapped joins a paragraph's lines with newlines, save where a line
// breaks inside a word: after a hyphen that follows a letter or a digit,
// or after a slash that ends a path from the root or a URL, before a line
// that goes on in lower case or with a digit. Text rendered from HTML
// (Debian's Python policy, many .txt manuals) wraps a long path at a
// slash ("/usr/lib/" and "python3/dist-packages" on the next line) and a
// compound at its hyphen ("dist-" and "packages"); joined with a space,
// the answer breaks the path or the word a question asks for. A relative
// name that ends in a slash ("ca/" before "for CA") is a folder's name
// as often as a wrapped path: it keeps its space.
func unwrapped(lines []string) string {
	var out []string
	for i, line := range lines {
		if i > 0 {
			end := strings.TrimRightFunc(lines[i-1], unicode.IsSpace)
			if next := strings.TrimLeftFunc(line, unicode.IsSpace); wrapsInsideWord(end, next) {
				if out == nil {
					out = slices.Clone(lines[:i])
				}
				out[len(out)-1] = strings.TrimRightFunc(out[len(out)-1], unicode.IsSpace) + next
				continue
			}
		}
		if out != nil {
			out = append(out, line)
		}
	}
	if out == nil {
		return strings.Join(lines, "\n")
	}
	return strings.Join(out, "\n")
}

// wrapsInsideWord reports whether a line that ends as end does (its
// trailing space trimmed) breaks a word the next line, starting as next
// does, goes on with (see unwrapped).
func wrapsInsideWord(end, next string) bool {
	first, _ := utf8.DecodeRuneInString(next)
	if !unicode.IsLower(first) && !unicode.IsDigit(first) {
		return false
	}
	word := end
	if i := strings.LastIndexFunc(end, unicode.IsSpace); i >= 0 {
		_, n := utf8.DecodeRuneInString(end[i:])
		word = end[i+n:]
	}
	switch {
	case strings.HasSuffix(word, "-"):
		before, _ := utf8.DecodeLastRuneInString(word[:len(word)-1])
		return unicode.IsLetter(before) || unicode.IsDigit(before)
	case strings.HasSuffix(word, "/"):
		word = strings.TrimLeft(word, `("'<[`)
		if strings.HasSuffix(word, "://") {
			return false // a URL's scheme before a word: "uses http://" and "without"
		}
		return len(word) > 1 && (word[0] == '/' || strings.HasPrefix(word, "~/") || strings.Contains(word, "://"))
	}
	return false
}

// answerUnits splits a prose passage into the units an answer may quote,
// each with the section heading above it. Headings are not quoted: they
// name the section whose sentences are. A list item is one unit however
// many lines it spans; a fenced code block is one unit with its newlines;
// a sentence ending in ":" is joined with the list or code block after it.
func answerUnits(text string) []quoteUnit { return splitUnits(text, false) }

// splitUnits is answerUnits; with bareHeadings, a short one-line paragraph
// without punctuation is a heading too (see looksLikeHeading): text
// converted from HTML or a manual page keeps its headings that way. In a
// plain text file such a line is as often a label ("INVOICE INV-2024-0117").
func splitUnits(text string, bareHeadings bool) []quoteUnit {
	return splitText(text, bareHeadings, false)
}

// splitText is splitUnits; with paragraphs, a paragraph of prose is one
// unit rather than one per sentence (see docUnits).
func splitText(text string, bareHeadings, paragraphs bool) []quoteUnit {
	heading := ""
	// path holds the headings above, by level: Markdown's # levels,
	// setext's = (1) and - (2), and a heading without markup below them
	// all (bareLevel).
	var path []struct {
		level int
		title string
	}
	section, secPos := 0, 0
	var units []quoteUnit
	var para []string
	// block numbers the blocks of the passage, so that a lead-in joins only
	// the block right after it.
	var blockOf []int
	block := 0
	// paraIndented: the paragraph's first line is indented (a changelog's
	// entries are; its release lines are not).
	paraIndented := false
	scope := func() string {
		ts := make([]string, len(path))
		for i, h := range path {
			ts[i] = h.title
		}
		return strings.Join(ts, " > ")
	}
	add := func(u quoteUnit) {
		u.heading, u.section, u.secPos = heading, section, secPos
		u.scope = scope()
		units = append(units, u)
		blockOf = append(blockOf, block)
		secPos++
	}
	newSection := func(h string, level int) {
		heading, section, secPos = h, section+1, 0
		for len(path) > 0 && path[len(path)-1].level >= level {
			path = path[:len(path)-1]
		}
		path = append(path, struct {
			level int
			title string
		}{level, h})
	}
	flush := func(lineBreak bool) {
		if len(para) == 0 {
			return
		}
		block++
		if bareHeadings && !lineBreak && len(para) == 1 && looksLikeHeading(para[0]) {
			newSection(para[0], bareLevel)
			para = para[:0]
			return
		}
		if !lineBreak && len(para) == 1 && !paraIndented && releaseHeading(para[0]) {
			newSection(para[0], bareLevel)
			para = para[:0]
			return
		}
		if stars := outlineHeading(para[0]); !lineBreak && len(para) == 1 && !paraIndented && stars > 0 {
			// "** Bug fixes" under "* Noteworthy changes in release 3.8":
			// a subheading of the release's notes.
			newSection(strings.TrimSpace(strings.TrimLeft(para[0], "*")), bareLevel+stars-1)
			para = para[:0]
			return
		}
		if strings.HasPrefix(para[0], "-- ") && len(para) == 1 {
			// A signature ("-- ChangZhuo Chen <czchen@debian.org>  Wed, 09
			// Jul 2025 …": a changelog entry's, a mail's) says who, not
			// what: it is not quoted.
			para = para[:0]
			return
		}
		if shellSession(para) {
			// "$ dropdb mydb" / "$ pg_restore -C …": commands keep their
			// lines, as code.
			add(quoteUnit{text: strings.Join(para, "\n"), code: true})
			para = para[:0]
			return
		}
		if terms := definedTerms(para, bareHeadings); len(terms) > 0 {
			add(quoteUnit{text: strings.Join(strings.Fields(unwrapped(para)), " "), defines: terms})
			para = para[:0]
			return
		}
		item := listMarker.MatchString(para[0])
		if item {
			para[0] = listMarker.ReplaceAllString(para[0], "")
			// A list item is quoted whole: cutting it at a sentence end
			// loses its second half.
			if s := strings.Join(strings.Fields(unwrapped(para)), " "); s != "" && len(tokenize(s)) > 0 {
				add(quoteUnit{text: s, item: true})
			}
			para = para[:0]
			return
		}
		if paragraphs {
			if s := strings.Join(strings.Fields(unwrapped(para)), " "); len(tokenize(s)) > 0 {
				add(quoteUnit{text: s})
			}
			para = para[:0]
			return
		}
		for _, s := range splitSentences(unwrapped(para)) {
			s = strings.Join(strings.Fields(s), " ")
			if s == "" || len(tokenize(s)) == 0 {
				continue
			}
			add(quoteUnit{text: s})
		}
		para = para[:0]
	}
	lines := strings.Split(text, "\n")
	inItem := false
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		trim := strings.TrimSpace(line)
		if len(para) == 0 {
			paraIndented = trim != "" && line[0] == ' ' || strings.HasPrefix(line, "\t")
		}
		switch {
		case trim == "":
			flush(false)
			inItem = false
		case commentSentence(line):
			// "# To read the complete changelog use `apt changelog
			// zorp`.": a comment is prose, quoted like any.
			para = append(para, strings.TrimSpace(strings.TrimLeft(trim, "#")))
		case headingLine.MatchString(line):
			flush(true)
			inItem = false
			newSection(strings.TrimSpace(strings.TrimLeft(trim, "#")), len(trim)-len(strings.TrimLeft(trim, "#")))
		case overlinedTitle(lines, i) && len(para) == 0 && !inItem:
			// reStructuredText's title with a rule above and below
			// ("=====" / "Version 2.4.1" / "=====", GNOME's NEWS files).
			newSection(strings.TrimSpace(lines[i+1]), setextLevel(trim))
			i += 2
		case setextLine.MatchString(line) && len(para) == 1 && !inItem:
			h := para[0]
			para = para[:0]
			newSection(h, setextLevel(trim))
		case fenceLine.MatchString(line):
			flush(true)
			inItem = false
			var code []string
			for i++; i < len(lines) && !fenceLine.MatchString(lines[i]); i++ {
				code = append(code, strings.TrimRight(lines[i], " \t\r"))
			}
			block++
			if c := strings.Trim(strings.Join(code, "\n"), "\n"); strings.TrimSpace(c) != "" {
				add(quoteUnit{text: c, code: true})
			}
		case !inItem && indented(line) && (len(para) == 0 || strings.HasSuffix(para[len(para)-1], ":")):
			// An indented block (Markdown's indented code, a man page's
			// example, HTML's <pre>) keeps its lines; so does one right
			// under a line ending in ":".
			flush(true)
			var code []string
			for ; i < len(lines) && (indented(lines[i]) || strings.TrimSpace(lines[i]) == "" && i+1 < len(lines) && indented(lines[i+1])); i++ {
				code = append(code, strings.TrimRight(lines[i], " \t\r"))
			}
			i--
			block++
			if c := dedent(code); strings.TrimSpace(c) != "" && len(tokenize(c)) > 0 {
				add(quoteUnit{text: c, code: true})
			}
			block++
		case listMarker.MatchString(line):
			flush(true)
			para = append(para, trim)
			inItem = true
		case inItem:
			// The next line of a list item.
			para = append(para, trim)
		case len(para) == 0 && !paraIndented && i+1 < len(lines) && releaseHeading(trim) && entriesStart(lines[i+1]):
			// A release's line heads the entries under it, though it
			// may space its words as a table's row does ("=item 2.4
			// (3 March 2011)" with two spaces before the date) and its
			// entries may follow with no blank line between ("version
			// 0.7" over "added:  frob method …" or "- Fix …").
			newSection(trim, bareLevel)
		case tableRow(trim) || (i+1 < len(lines) && tableRow(strings.TrimSpace(lines[i+1]))):
			// A table row stands alone.
			flush(true)
			para = append(para, trim)
			flush(true)
		default:
			para = append(para, trim)
		}
	}
	flush(true)
	return joinLeadIns(units, blockOf)
}

// entriesStart reports whether the line after a release's line starts
// the release's entries or leaves a blank: a list item, a table's row
// ("added:  frob method …"), nothing. A line naming another release
// ("=   Generated … by Quilldoc 1.4" under "=== README for Zorp version
// 3.2") is no entry: the two lines are a title.
func entriesStart(next string) bool {
	t := strings.TrimSpace(next)
	return t == "" || listMarker.MatchString(next) || tableRow(t) && !releaseHeading(t)
}

// setextLevel is the level of a heading a rule of "=" (1) or "-" (2)
// underlines.
func setextLevel(rule string) int {
	if strings.HasPrefix(rule, "=") {
		return 1
	}
	return 2
}

// overlinedTitle reports whether lines[i] opens a title written between
// two rules of one character: a rule, a line of text, a rule.
func overlinedTitle(lines []string, i int) bool {
	if i+2 >= len(lines) || !setextLine.MatchString(lines[i]) || strings.TrimSpace(lines[i+1]) == "" || setextLine.MatchString(lines[i+1]) {
		return false
	}
	rule := strings.TrimSpace(lines[i])
	return strings.TrimSpace(lines[i+2]) != "" && strings.Trim(strings.TrimSpace(lines[i+2]), rule[:1]) == ""
}

// indented reports whether a line starts with a tab or four spaces.
func indented(line string) bool {
	return strings.HasPrefix(line, "\t") || strings.HasPrefix(line, "    ")
}

// dedent removes the indentation all lines share.
func dedent(lines []string) string {
	common := ""
	for k, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		ind := l[:len(l)-len(strings.TrimLeft(l, " \t"))]
		if k == 0 || len(ind) < len(common) {
			common = ind
		}
	}
	for k, l := range lines {
		lines[k] = strings.TrimPrefix(l, common)
	}
	return strings.Trim(strings.Join(lines, "\n"), "\n")
}

// commentMinWords is how many words a line after "#" has, at least, to be
// read as a sentence when it ends in a full stop (see commentSentence).
// Set once, not tuned.
const commentMinWords = 4

// commentSentence reports whether a line written as a Markdown heading
// ("# …") is a sentence: commentMinWords words or more ending in a full
// stop. A heading names a section and ends without one; a comment in a
// text that is not Markdown (the note at the end of a Debian changelog
// cut short, "# Older entries have been removed from this changelog.")
// says something, and is quoted as prose.
func commentSentence(line string) bool {
	if !headingLine.MatchString(line) {
		return false
	}
	t := strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(line), "#"))
	return strings.HasSuffix(t, ".") && len(strings.Fields(t)) >= commentMinWords
}

// looksLikeHeading reports whether a one-line paragraph is a heading of
// text converted from HTML or a man page: a few words, no sentence
// punctuation at the end, a letter first.
func looksLikeHeading(line string) bool {
	line = strings.TrimSpace(line)
	if line == "" || strings.ContainsAny(line[len(line)-1:], ".:;,!?)]}\"'`") || listMarker.MatchString(line) {
		return false
	}
	words := strings.Fields(line)
	if len(words) > headingMaxWords {
		return false
	}
	r := []rune(line)[0]
	return r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' && len(words) > 1
}

// releaseLine finds what a release heading holds: a version.
var releaseVersion = regexp.MustCompile(`\b\d+(?:\.\d+)+`)

// releaseHeadingMaxWords bounds a release heading: "jq (1.6-2.1+deb12u1)
// bookworm; urgency=medium", "* Noteworthy changes in release 3.8
// (2022-09-02) [stable]".
const releaseHeadingMaxWords = 12

// releaseHeading reports whether a one-line paragraph that is not indented
// heads the notes of one release in a changelog or NEWS file: it names a
// version, is short and is no sentence, or it opens an entry of a Debian
// changelog. The entries under it are its section (see releaseScope).
func releaseHeading(line string) bool {
	if text.ChangelogRelease.MatchString(line) {
		return true
	}
	t := strings.TrimSpace(strings.TrimLeft(line, "*#= "))
	if t == "" || strings.HasSuffix(t, ".") || len(strings.Fields(t)) > releaseHeadingMaxWords || strings.HasPrefix(line, "-") || strings.HasPrefix(line, "+") {
		return false
	}
	return releaseVersion.MatchString(t)
}

// releaseOf is the version a release heading names: a Debian changelog
// entry's, or the first dotted number of any other; "" for a heading that
// names none.
func releaseOf(heading string) string {
	if m := text.ChangelogRelease.FindStringSubmatch(heading); m != nil {
		return m[1]
	}
	return releaseVersion.FindString(heading)
}

// outlineHeading is the level of a heading in Emacs outline style, as GNU
// NEWS files write them ("* Noteworthy changes in release 3.8", "** Bug
// fixes"): two stars or more, a space, a few words and no full stop. One
// star opens a list item in Markdown, so it is left to releaseHeading,
// which takes it for a heading only when it names a version. 0 for any
// other line.
func outlineHeading(line string) int {
	t := strings.TrimLeft(line, "*")
	stars := len(line) - len(t)
	if stars < 2 || !strings.HasPrefix(t, " ") {
		return 0
	}
	t = strings.TrimSpace(t)
	if t == "" || strings.HasSuffix(t, ".") || len(strings.Fields(t)) > releaseHeadingMaxWords {
		return 0
	}
	return stars
}

// shellSession reports whether every line of a paragraph is a command
// typed at a shell prompt ("$ pg_dump -Fc mydb > db.dump").
func shellSession(para []string) bool {
	for _, l := range para {
		if !strings.HasPrefix(l, "$ ") {
			return false
		}
	}
	return len(para) > 0
}

// optionTerm is a command-line option opening a line: "-r", "--max-rate".
var optionTerm = regexp.MustCompile(`^--?[A-Za-z][\w-]*`)

// definedTerms are the terms a paragraph defines when it opens with them,
// a manual's way: options ("-r rate" / "--max-rate=rate" above "Sets the
// maximum transfer rate …") in any text, and in text converted from a
// manual or HTML a short term on a line of its own above its description
// ("RESTART IDENTITY" / "Automatically restart sequences …"). Nil for
// any other paragraph.
func definedTerms(para []string, converted bool) []string {
	var out []string
	for _, line := range para {
		m := optionTerm.FindString(strings.TrimSpace(line))
		if m == "" {
			break
		}
		out = append(out, m)
	}
	if len(out) > 0 || !converted {
		return out
	}
	if label, ok := glossaryTerm(para[0]); ok {
		return []string{label}
	}
	if len(para) < 2 {
		return nil
	}
	if t := strings.TrimSpace(para[0]); termWords(t) <= maxTermWords && !strings.ContainsAny(t[len(t)-1:], ".:;,!?") {
		return []string{t}
	}
	return nil
}

// maxLabelWords is the longest term a glossary line opens with before its
// colon: "SB: Static base pointer", "Read committed: …". A longer run
// before a colon is a sentence leading in to what follows.
const maxLabelWords = 3

// glossaryTerm finds the term of a glossary or list line that opens with it
// and a colon ("FP: Frame pointer: arguments and locals.", an HTML list's
// way of defining its entries), and reports whether there is one.
func glossaryTerm(line string) (string, bool) {
	t := strings.TrimSpace(line)
	i := strings.Index(t, ": ")
	if i <= 0 || strings.TrimSpace(t[i+1:]) == "" {
		return "", false
	}
	term := t[:i]
	if len(strings.Fields(term)) > maxLabelWords || strings.ContainsAny(term, ".,;!?()\"'") || strings.Contains(term, "://") {
		return "", false
	}
	return term, true
}

// maxTermWords is the longest term a definition paragraph opens with, in
// words (termWords): "RESTART IDENTITY", "WITH GRANT OPTION", "\\x [ on |
// off | auto ]".
const maxTermWords = 8

// termWords is how many words a term line holds: the fields with a
// letter. A synopsis's brackets, bars and ellipses ("OPTIONS ( [ ADD |
// DROP ] option [, ... ] )") are no words.
func termWords(t string) int {
	n := 0
	for _, f := range strings.Fields(t) {
		if strings.ContainsFunc(f, unicode.IsLetter) {
			n++
		}
	}
	return n
}

// joinLeadIns joins a unit ending in ":" with the list items or the code
// block of the next block, so that an answer never stops at "…dump file:".
// A sentence left unfinished before a code block ("As an example,",
// "Setting a logger as the default with", a manual's "zorp_body The body
// of a frob. This should be a block") is a lead-in too, and the
// sentence's end after the block ("will cause …", in lower case) is
// joined with them. So is a sentence that announces the example after it
// ("The following example command renames the quill."), whatever it ends
// with: the example is what it describes.
func joinLeadIns(units []quoteUnit, blockOf []int) []quoteUnit {
	var out []quoteUnit
	for i := 0; i < len(units); i++ {
		u := units[i]
		if u.code || i+1 >= len(units) || units[i+1].section != u.section || blockOf[i+1] != blockOf[i]+1 || !leadsIn(u, units[i+1]) {
			out = append(out, u)
			continue
		}
		next := units[i+1]
		switch {
		case next.code:
			u.text += "\n" + fence(next.text)
			u.lead = true
			i++
			if k := i + 1; !strings.HasSuffix(u.text, ":\n"+fence(next.text)) && sentenceGoesOn(units, u.section, k) && blockOf[k] != blockOf[i] {
				u.text += "\n" + units[k].text
				i = k
			}
		case next.item:
			var b strings.Builder
			b.WriteString(u.text)
			n := 0
			for j := i + 1; j < len(units) && units[j].item && units[j].section == u.section && n < maxLeadItems; j++ {
				b.WriteString("\n- " + units[j].text)
				n++
				i = j
			}
			u.text, u.lead = b.String(), true
		default:
			// A lead-in whose list or block is not in this passage still
			// joins the sentence after it, when that one is short prose.
			if !next.item && blockOf[i+1] == blockOf[i]+1 {
				u.text += "\n" + next.text
				u.lead = true
				i++
				// "…declared in the universe block:" "Types:" and its block.
				if strings.HasSuffix(next.text, ":") && i+1 < len(units) && units[i+1].code && blockOf[i+1] == blockOf[i]+1 {
					u.text += "\n" + fence(units[i+1].text)
					i++
				} else if k := i + 1; sentenceGoesOn(units, u.section, k) && blockOf[k] == blockOf[i]+1 {
					// The end of the lead-in's sentence after a one-line
					// example ("Frob it with:" / "ZAP quill;" / "which also
					// clears …"), in lower case, as after a code block.
					u.text += "\n" + units[k].text
					i = k
				}
			}
		}
		out = append(out, u)
	}
	return out
}

// leadsIn reports whether u leads in to next, the unit of the block after
// it (see joinLeadIns). Besides a code block, a sentence that stops on a
// word leads in to a short unit after it, no longer than a heading
// (headingMaxWords), as plain text writes a setting or a command on a
// line of its own without indenting it: a README's "to enable it again,
// edit /etc/frob.conf and uncomment" and the setting to uncomment.
func leadsIn(u, next quoteUnit) bool {
	return strings.HasSuffix(u.text, ":") || next.code && !u.item && unfinished(u.text) || !u.item && announcesExample.MatchString(u.text) ||
		!u.item && !next.item && endsOnAWord(u.text) && len(strings.Fields(next.text)) <= headingMaxWords
}

// announcesExample finds a sentence that announces the example after it,
// as manuals write one before each example of a command: "The following
// example command …", "the following statements …". A sentence that
// announces other things ("the following environment variables") leads
// in to paragraphs that are each an answer of their own.
var announcesExample = regexp.MustCompile(`(?i)\bthe following (?:examples?|commands?|statements?)\b`)

// endsOnAWord reports whether a unit of prose stops on a word of letters
// only, not on a full stop, a colon, a number, a name with dots or a
// web address ("… are available from https://example.org/frob" is a
// finished sentence).
func endsOnAWord(text string) bool {
	f := strings.Fields(text)
	return len(f) > 0 && !strings.ContainsFunc(f[len(f)-1], func(r rune) bool { return !unicode.IsLetter(r) })
}

// unfinished reports whether a unit of prose stops mid-sentence: it ends
// in a letter, a digit or a comma rather than a full stop, a question
// mark or an exclamation mark.
func unfinished(text string) bool {
	t := strings.TrimRight(text, " ")
	if t == "" {
		return false
	}
	r, _ := utf8.DecodeLastRuneInString(t)
	return r == ',' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

// sentenceGoesOn reports whether units[k] may be the rest of a sentence
// an example interrupted: prose (no code, no list item) of the same
// section, starting in lower case ("will cause …"). Which block it must be
// in is the caller's.
func sentenceGoesOn(units []quoteUnit, section, k int) bool {
	return k < len(units) && units[k].section == section && !units[k].code && !units[k].item && startsLower(units[k].text)
}

// startsLower reports whether text opens with a lower-case letter: the
// rest of a sentence an example interrupted.
func startsLower(text string) bool {
	r, _ := utf8.DecodeRuneInString(text)
	return unicode.IsLower(r)
}

// fence marks text as a code block.
func fence(code string) string {
	return "```\n" + code + "\n```"
}

// codeTypes are the document types read as source code.
var codeTypes = toSet(`go py pyi js mjs cjs ts tsx jsx java kt kts scala c h cc cpp cxx hpp hh cs rs rb php swift m mm sh bash zsh sql lua pl pm hs ml ex exs erl clj dart proto`)

// kindPackage is the chunk kind of a package's doc comment
// (ingest.KindPackage).
const kindPackage = "package"

// kindComment is the chunk kind of a source comment that documents no
// declaration: a file's header, a note between declarations
// (ingest.KindComment).
const kindComment = "comment"

// codeKinds are the chunk kinds of a code declaration (see graphrag.Chunk).
var codeKinds = toSet(`func type const var method`)

// isCodeHit reports whether a hit is source code rather than prose.
func isCodeHit(h graphrag.Hit) bool {
	return codeKinds[h.Chunk.Kind] || codeTypes[strings.ToLower(h.Source.Type)] ||
		h.Source.Type == "" && codeTypes[strings.TrimPrefix(path.Ext(h.Source.Path), ".")]
}

// convertedText reports whether a hit's text was converted from markup
// that has headings (HTML, a manual page), so that a bare short line in it
// is a heading.
func convertedText(h graphrag.Hit) bool {
	t := strings.ToLower(h.Source.Type)
	switch {
	case t == "html" || t == "htm" || t == "xhtml" || t == "man":
		return true
	case t != "" && t[0] >= '1' && t[0] <= '9':
		return true // a manual page section: "1", "7", "3pm"
	}
	p := strings.ToLower(h.Source.Path)
	return strings.Contains(p, "/man/") || strings.Contains(p, "/man1/") || strings.Contains(p, "/man7/")
}

// isTestPath reports whether a file is a test, test data or a vendored copy:
// what a question about an API is rarely about.
func isTestPath(p string) bool {
	p = slashed(p)
	base := path.Base(p)
	return strings.HasSuffix(base, "_test.go") || strings.Contains(p, "/testdata/") || strings.Contains(p, "/vendor/") ||
		strings.HasPrefix(base, "test_") || strings.Contains(base, ".test.") || strings.Contains(base, ".spec.")
}

// slashed is a path with forward slashes, starting with one.
func slashed(p string) string { return "/" + strings.ReplaceAll(p, "\\", "/") }

// vendoredPart is the part of a vendored file's path after its last
// vendor folder ("/golang.org/x/mod/module/pseudo.go" of
// src/cmd/vendor/golang.org/x/mod/module/pseudo.go): the path of the file
// it copies in its own module.
func vendoredPart(p string) (string, bool) {
	p = slashed(p)
	i := strings.LastIndex(p, "/vendor/")
	if i < 0 {
		return "", false
	}
	return p[i+len("/vendor"):], true
}

// setAside reports whether a hit's file is read after the others among
// hits (isTestPath). A vendored file is a copy, set aside only when one
// of hits is the file it copies: Go's tree vendors golang.org/x/mod and
// golang.org/x/tools and holds no other copy of them, so the vet
// analyzers' docs under src/cmd/vendor are the only ones there are.
func setAside(p string, hits []graphrag.Hit) bool {
	if !isTestPath(p) {
		return false
	}
	part, vendored := vendoredPart(p)
	if !vendored || isTestPath(part) {
		return true
	}
	return slices.ContainsFunc(hits, func(h graphrag.Hit) bool {
		_, copied := vendoredPart(h.Source.Path)
		return !copied && strings.HasSuffix(slashed(h.Source.Path), part)
	})
}

// codeUnits splits a source passage into declarations: a run of comment
// lines with the code lines after it, up to a blank line or the next
// comment. Newlines are kept. A licence header is no unit. A declaration
// longer than maxCodeLines is cut to the lines around the one holding the
// most of stems.
func codeUnits(text string, stems map[string]bool, asked *regexp.Regexp) []quoteUnit {
	var units []quoteUnit
	var cur []string
	inCode := false
	flush := func() {
		if len(cur) == 0 {
			return
		}
		block := cur
		cur, inCode = nil, false
		if licenceHeader(block) {
			return
		}
		whole := ""
		if len(block) > maxCodeLines {
			whole = strings.Trim(strings.Join(block, "\n"), "\n")
			block = codeWindow(block, stems, asked)
		}
		s := strings.Trim(strings.Join(block, "\n"), "\n")
		if strings.TrimSpace(s) == "" || len(tokenize(s)) == 0 {
			return
		}
		units = append(units, quoteUnit{text: s, block: whole, code: true, section: 1, secPos: len(units)})
	}
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimRight(line, " \t\r")
		trim := strings.TrimSpace(line)
		comment := strings.HasPrefix(trim, "//") || strings.HasPrefix(trim, "#") || strings.HasPrefix(trim, "/*") || strings.HasPrefix(trim, "*")
		switch {
		case trim == "":
			flush()
		case comment && inCode && !strings.Contains(line, "\t//"):
			// A comment after code starts the next declaration's doc.
			flush()
			cur = append(cur, line)
		default:
			cur = append(cur, line)
			if !comment {
				inCode = true
			}
		}
	}
	flush()
	return units
}

// licenceHeader reports whether a comment block is a copyright or licence
// notice.
func licenceHeader(lines []string) bool {
	head := strings.ToLower(strings.Join(lines[:min(3, len(lines))], " "))
	return strings.Contains(head, "copyright") && (strings.Contains(head, "license") || strings.Contains(head, "licence") || strings.Contains(head, "rights reserved"))
}

// codeWindow keeps the lines around the one that best matches the
// question (see rareStemScores), with the block's first line (its
// declaration or doc) when the window does not reach it.
func codeWindow(lines []string, stems map[string]bool, asked *regexp.Regexp) []string {
	// The name the block declares is quoted whatever the window (the doc
	// opens with it, and so does the declaration): when the question
	// names it, where to look in a long body or doc is said by its other
	// words. Nor does the declaration's line point there: its receiver,
	// parameters and result ("(int64, error)") say what the block is,
	// which the question has matched already; "what error does Seek
	// give for a negative position" is answered by the body's line that
	// says so.
	sig := -1
	doc := leadingComment(lines) // the doc comment's lines; the declaration's line follows
	if doc < len(lines) {
		if m := declaredName.FindStringSubmatch(lines[doc]); m != nil {
			sig = doc
			stems = maps.Clone(stems)
			for _, t := range tokenize(m[1]) {
				delete(stems, t.Stem)
			}
		}
	}
	best, bestN := 0, -1.0
	scores := rareStemScores(lines, stems)
	for i, n := range scores {
		if n > bestN && i != sig {
			best, bestN = i, n
		}
	}
	// A number the question writes, given to a name on a line of its own
	// ("TagZorp = 27" for "which tag constant has the value 27"): the
	// line the question points at. Looked for only when the question
	// writes a number.
	if asksNumber(stems) {
		for i, l := range lines {
			if m := constValue.FindStringSubmatch(l); m != nil && stems[m[1]] && i != sig {
				best = i
				break
			}
		}
	}
	if asked != nil {
		// The question asks for what a line of the kind holds (the text
		// of an error: see askKind "message"): the window is around the
		// line of that kind that holds the most of the question's words,
		// when one holds any.
		at, most := -1, 0.0
		for i, n := range scores {
			if n > most && i != sig && asked.MatchString(lines[i]) {
				at, most = i, n
			}
		}
		if at >= 0 {
			best = at
		}
	}
	if best < doc {
		if out, ok := docWindow(lines, doc, stems); ok {
			return out
		}
	}
	if best > doc && doc > 0 && doc <= maxDocKept {
		// The best line is in the body: a short doc comment is quoted
		// whole, with the declaration's line, and the body is cut to the
		// lines around the best one. The doc says what the function does
		// and why ("Quills wider than 9 are refused", "the spool is not
		// locked here, because …"); a window of lines that opens in it
		// keeps its first line and drops the rest.
		// The cap less the doc, the declaration's line and two "…".
		from, to := lineWindow(best, doc+1, len(lines), maxCodeLines-doc-3)
		out := append([]string(nil), lines[:doc+1]...)
		if from > doc+1 {
			out = append(out, "\t…")
		}
		out = append(out, lines[from:to]...)
		if to < len(lines) {
			out = append(out, "\t…")
		}
		return out
	}
	// The window takes what the cap leaves beside the first line and the
	// two "…": about as much before the best line as after it, more after
	// when the block starts near it.
	from, to := lineWindow(best, 0, len(lines), maxCodeLines-3)
	if from == 1 {
		from = 0 // no "…" for nothing left out
	}
	out := append([]string(nil), lines[from:to]...)
	if from > 0 {
		out = append([]string{lines[0], "\t…"}, out...)
	}
	if to < len(lines) {
		out = append(out, "\t…")
	}
	return out
}

// lineWindow is the window [from, to) of at most n lines of [lo, hi)
// around line best: about as much before it as after, more after when it
// is near lo, more before when it is near hi.
func lineWindow(best, lo, hi, n int) (from, to int) {
	to = min(hi, max(lo, best-n/2)+n)
	return max(lo, to-n), to
}

// declaredName finds the name a Go-like declaration line declares: a
// func's or method's, a type's, a var's or a const's.
var declaredName = regexp.MustCompile(`^\s*(?:func\s+(?:\([^)]*\)\s*)?|type\s+|var\s+|const\s+)([A-Za-z_]\w*)`)

// rareStemScores scores each line of a block by the question's stems it
// holds (not its function words), each weighing one over the number of
// the block's lines that hold it: in a long struct whose every comment
// says "process", the line naming the field the question asks about
// ("Zorpsig") is the one to show, not the first that says "process"
// twice.
func rareStemScores(lines []string, stems map[string]bool) []float64 {
	held := make([][]string, len(lines)) // in the line's order, so sums are the same each run
	df := map[string]int{}
	for i, l := range lines {
		for _, t := range tokenize(l) {
			if stems[t.Stem] && !stopWords[t.Lower] && !slices.Contains(held[i], t.Stem) {
				held[i] = append(held[i], t.Stem)
				df[t.Stem]++
			}
		}
	}
	scores := make([]float64, len(lines))
	for i := range lines {
		for _, st := range held[i] {
			scores[i] += 1 / float64(df[st])
		}
	}
	return scores
}

// stemsIn counts the words of line whose stem is in stems.
func stemsIn(line string, stems map[string]bool) int {
	n := 0
	for _, t := range tokenize(line) {
		if stems[t.Stem] {
			n++
		}
	}
	return n
}

// kindFields is the chunk kind of a stanza of fields (ingest.KindFields):
// "Name: value" lines with indented continuation lines, as Debian's
// machine-readable copyright files are written.
const kindFields = "fields"

// fieldLine finds a field's name at the start of a line: "Copyright:",
// "Upstream-Contact:".
var fieldLine = regexp.MustCompile(`^([A-Za-z][A-Za-z0-9-]*):(\s|$)`)

// maxFieldLines bounds the continuation lines a field's unit quotes (a
// copyright with forty holders): like a lead-in's list, see maxLeadItems.
const maxFieldLines = maxLeadItems

// fieldUnits splits a chunk of fields into units: each field with its
// continuation lines is one unit that defines the field's name, so that
// "who holds the copyright on gzip" quotes the Copyright field whole. A
// field whose value runs on in paragraphs (continuation lines of a lone
// "." between them: a licence's text) is its first line alone, and its
// paragraphs are prose under the field's name. Stanzas (blank lines) are
// sections. A copyright header's Format field is no unit.
func fieldUnits(text string) []quoteUnit {
	var units []quoteUnit
	section, secPos := 1, 0
	add := func(u quoteUnit) {
		u.section, u.secPos = section, secPos
		units = append(units, u)
		secPos++
	}
	lines := strings.Split(text, "\n")
	for i := 0; i < len(lines); i++ {
		m := fieldLine.FindStringSubmatch(lines[i])
		if m == nil {
			if strings.TrimSpace(lines[i]) == "" && secPos > 0 {
				section, secPos = section+1, 0
			}
			continue // a stray continuation line: part of no field
		}
		name := m[1]
		value := []string{strings.TrimSpace(lines[i])}
		var rest []string
		for i+1 < len(lines) && (strings.HasPrefix(lines[i+1], " ") || strings.HasPrefix(lines[i+1], "\t")) {
			i++
			rest = append(rest, strings.TrimSpace(lines[i]))
		}
		if strings.EqualFold(name, "Format") || strings.EqualFold(name, "Format-Specification") {
			// A copyright file's header names the specification it is
			// written to ("Format: https://www.debian.org/doc/…/
			// copyright-format/1.0/"; the draft's Format-Specification):
			// it says nothing of the work, and its URL's words
			// ("packaging") are no answer's.
			continue
		}
		if !slices.Contains(rest, ".") {
			if len(rest) > maxFieldLines {
				rest = append(rest[:maxFieldLines], "…")
			}
			add(quoteUnit{text: strings.Join(append(value, rest...), " "), defines: []string{name}, field: name})
			continue
		}
		add(quoteUnit{text: value[0], defines: []string{name}, field: name})
		// The paragraphs of the value: prose, headed by the field's name.
		for _, u := range splitUnits(strings.ReplaceAll(strings.Join(rest, "\n"), "\n.\n", "\n\n"), false) {
			u.heading = name
			add(u)
		}
	}
	return units
}

// A stanzaScope is what a stanza of a Debian copyright file (DEP-5) is
// about: its Files field names the files its Copyright and License are
// of. "Files: *" and the header (Format, Upstream-Name, with no Files of
// its own) are of the work as a whole; "Files: debian/*" of the Debian
// packaging, whose copyright holders packaged the work and did not write
// it; any other Files of a part (vendored code, a test's data).
type stanzaScope int

const (
	stanzaNone      stanzaScope = iota // no stanza of a copyright file: a licence's text, prose
	stanzaWhole                        // "Files: *", or the header
	stanzaPart                         // "Files: src/vendor/*"
	stanzaPackaging                    // "Files: debian/*"
)

// filesScope is the scope of a stanza whose Files field holds patterns
// (filesPatterns).
func filesScope(patterns []string) stanzaScope {
	switch {
	case len(patterns) == 0:
		return stanzaNone
	case slices.Contains(patterns, "*"):
		return stanzaWhole
	case !slices.ContainsFunc(patterns, func(p string) bool { return !strings.HasPrefix(p, "debian/") }):
		return stanzaPackaging
	}
	return stanzaPart
}

// headerFields are the fields only a copyright file's header stanza has.
var headerFields = toSet(`format upstream-name upstream-contact`)

// markStanzas sets the stanza scope of each unit of a chunk of fields
// (fieldUnits): by its stanza's Files field, or the header's fields. A
// chunk that begins inside a stanza has the stanza's Files as its
// heading (ingest), which scopes its first section.
func markStanzas(units []quoteUnit, heading string) {
	scopes := map[int]stanzaScope{}
	files := map[int][]string{}
	first := -1
	for _, u := range units {
		if first < 0 {
			first = u.section
		}
		switch {
		case strings.EqualFold(u.field, "Files"):
			files[u.section] = filesPatterns(u.text)
			scopes[u.section] = filesScope(files[u.section])
		case headerFields[strings.ToLower(u.field)] && scopes[u.section] == stanzaNone:
			scopes[u.section] = stanzaWhole
		}
	}
	if _, ok := scopes[first]; !ok && first >= 0 && strings.HasPrefix(strings.ToLower(heading), "files:") {
		files[first] = filesPatterns(heading)
		scopes[first] = filesScope(files[first])
	}
	for i := range units {
		units[i].stanza = scopes[units[i].section]
		if units[i].stanza == stanzaPart {
			units[i].files = files[units[i].section]
		}
	}
}

// filesPatterns are the patterns of a Files field (its value, or a
// chunk's heading "Files: …").
func filesPatterns(files string) []string {
	return strings.Fields(strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(files, "Files:"), "files:")))
}

// filesNamed reports whether a part's Files patterns match a file the
// question names: "select-zorp" of "who wrote select-zorp" matches
// "select-zorp*" and "bin/select-zorp". A pattern is matched by its last
// part, as a question names a file by its name, or by the folders of a
// package the question writes with dots, as Java names its packages:
// "org.zorp.frob" names "src/main/java/org/zorp/frob/Frob.java". A
// question that asks about a manual page names the page as its command or
// header is called: "the zorp.h man page" is "man3/zorp.h.3", whose
// section the question does not write (and "who wrote zorp" asks about
// the program, not its page's stanza).
func filesNamed(patterns []string, words []string) bool {
	manPage := slices.Contains(words, "manpage") || slices.Contains(words, "man") && (slices.Contains(words, "page") || slices.Contains(words, "pages"))
	return slices.ContainsFunc(patterns, func(p string) bool {
		p = strings.ToLower(p)
		if slices.ContainsFunc(words, func(w string) bool { return dottedPackageOf(p, w) }) {
			return true
		}
		base := path.Base(p)
		if strings.Trim(base, "*?") == "" {
			return false
		}
		var page string // the page's name, when p is a manual page's
		if loc := manSection.FindStringIndex(base); loc != nil && manPage {
			page = base[:loc[0]]
		}
		return slices.ContainsFunc(words, func(w string) bool {
			ok, err := path.Match(base, w)
			if page != "" && !ok {
				ok, err = path.Match(page, w)
			}
			return err == nil && ok
		})
	})
}

// dottedPackageOf reports whether w, a package name of three parts or
// more joined by dots ("org.zorp.frob"), is a run of the folders the
// pattern p lies in ("src/org/zorp/frob/*"): p's files are of that
// package or one inside it. "sse4.1" or "zorp.conf" names no package.
func dottedPackageOf(p, w string) bool {
	if strings.Count(w, ".") < 2 {
		return false
	}
	return strings.Contains("/"+path.Dir(p)+"/", "/"+strings.ReplaceAll(w, ".", "/")+"/")
}

// maxDefinitionWords bounds a definition quoted whole (wholeDefinition):
// most options of a manual are described in one to three short paragraphs;
// a longer description is quoted by its parts.
const maxDefinitionWords = 120

// wholeDefinition joins the paragraphs of a passage that is one term's
// definition into the unit that opens it: a manual's option cut into its
// own passage ("-j, --jobs": "-j njobs --jobs=njobs Execute the reindex
// commands in parallel …", then "… make sure your max_connections …", then
// "Note that this option is incompatible with the --index and --system
// options."). What the later paragraphs say is as much the definition as
// the first: a limit, a conflict, a default. The passage is the
// definition when its heading names a term the first unit defines.
func wholeDefinition(units []quoteUnit, heading string) []quoteUnit {
	if len(units) < 2 || len(units[0].defines) == 0 || !slices.ContainsFunc(units[0].defines, func(t string) bool { return hasWord(strings.ToLower(heading), strings.ToLower(t)) }) {
		return units
	}
	first := units[0]
	n := len(strings.Fields(first.text))
	k := 1
	for ; k < len(units); k++ {
		u := units[k]
		w := len(strings.Fields(u.text))
		if u.code || u.lead || u.item || len(u.defines) > 0 || u.section != first.section || n+w > maxDefinitionWords {
			break
		}
		if strings.HasSuffix(first.text, "```") {
			first.text += "\n" + u.text // after its block, on a line of its own
		} else {
			first.text += " " + u.text
		}
		n += w
	}
	if k == 1 {
		return units
	}
	return append([]quoteUnit{first}, units[k:]...)
}

// manSection finds a manual page file's section at the end of its name:
// ".1" of "zorp.1", ".3head" of "zorp.h.3head".
var manSection = regexp.MustCompile(`\.[1-9][a-z]*$`)

// constValue finds a line that gives a name a number: a const or var
// block's entry ("TagZorp = 27", "alertFrob alert = 121").
var constValue = regexp.MustCompile(`^\s*[A-Za-z_]\w*(?:\s+[A-Za-z_][\w.]*)?\s*=\s*(\d{2,})\s*(?://.*)?$`)

// asksNumber reports whether stems hold a number: a stem of digits only.
func asksNumber(stems map[string]bool) bool {
	for st := range stems {
		if st != "" && !strings.ContainsFunc(st, func(r rune) bool { return r < '0' || r > '9' }) {
			return true
		}
	}
	return false
}
