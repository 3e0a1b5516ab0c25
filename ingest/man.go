package ingest

import (
	"context"
	"regexp"
	"slices"
	"strings"

	"github.com/graphrag/graphrag/internal/text"
)

// manExt matches the extensions of manual pages: a section digit and an
// optional suffix (pg_dump.1, printf.3p, ssl.3ssl).
var manExt = regexp.MustCompile(`^[1-9][a-z]{0,6}$`)

// roffMarker finds the requests that mark a file as roff (man or mdoc).
var roffMarker = regexp.MustCompile(`(?m)^\.(?:TH|SH|Dd|Dt|Sh)\b`)

// loadMan reads a manual page written in roff (the man or mdoc macros) as
// text: requests become paragraph and line breaks, font and character
// escapes become plain characters, and .SH/.SS (.Sh/.Ss) titles cut it
// into sections whose lines are the page source's. A file with such an
// extension that is not roff is read as text.
func loadMan(ctx context.Context, path string, data []byte) (Loaded, error) {
	src, ok := text.Decode(data)
	if !ok {
		return Loaded{}, ErrNotText
	}
	if !roffMarker.MatchString(src[:min(len(src), 64<<10)]) {
		return Loaded{Text: src}, nil
	}
	m := roffText(src)
	heads := withDefinitions(m.lines, m.verbatim, m.heads)
	indentCode(m.lines, m.verbatim)
	secs := leadDescription(headingSections(m.lines, heads, m.lineNos), pageName(m.title))
	named(secs, heads)
	return Loaded{Title: m.title, Text: strings.Join(m.lines, "\n"), Sections: secs, Type: "man"}, nil
}

// indentCode indents, by four spaces, each run of two or more lines of
// no-fill text (.nf … .fi: a synopsis, an example session, a message
// with its DETAIL and HINT lines), so that it is read as a block of code,
// as Markdown's indented code is, and quoted with its line breaks rather
// than run together into one line. A single no-fill line (a one-line
// example) stays as it is and reads as the end of the sentence that leads
// it in. On the real-documents tuning sets, indenting single lines too
// lost one more answer than it won; runs of two or more won one.
func indentCode(lines []string, verbatim []bool) {
	for i := 0; i < len(lines); {
		j := i
		for j < len(lines) && verbatim[j] && strings.TrimSpace(lines[j]) != "" {
			j++
		}
		if j-i >= 2 {
			for k := i; k < j; k++ {
				lines[k] = "    " + lines[k]
			}
		}
		i = max(j, i+1)
	}
}

// pageName is the name a manual page documents, from its NAME line
// ("pg_rewind - synchronize a PostgreSQL data directory …" gives
// "pg_rewind", "ALTER TABLE — change the definition of a table" "ALTER
// TABLE"); "" when the line has no dash.
func pageName(nameLine string) string {
	for _, dash := range []string{" - ", " — ", " – "} {
		if name, _, ok := strings.Cut(nameLine, dash); ok {
			return strings.TrimSpace(name)
		}
	}
	return ""
}

// leadDescription cuts the first paragraph of a page's DESCRIPTION (with
// the heading's line) into a section of its own, named by the page
// (Symbol): it says what the command or statement is and does, the way a
// package's doc comment does for Go code, which is what "what is pg_rewind
// for" or "what does pg_checksums do" asks. Named, a search for the page
// finds it before the page's twenty short option paragraphs.
func leadDescription(secs []Section, name string) []Section {
	if name == "" {
		return secs
	}
	for i, s := range secs {
		if !strings.EqualFold(s.Heading, "DESCRIPTION") {
			continue
		}
		lines := strings.Split(s.Text, "\n")
		// The heading's line, blank lines, then the paragraph up to the
		// next blank line.
		end := 1
		for end < len(lines) && strings.TrimSpace(lines[end]) == "" {
			end++
		}
		for end < len(lines) && strings.TrimSpace(lines[end]) != "" {
			end++
		}
		if end <= 1 {
			return secs
		}
		lead, rest := s, s
		lead.Text, lead.Symbol = strings.Join(lines[:end], "\n"), name
		rest.Text = strings.Join(lines[end:], "\n")
		if s.Lines != nil {
			lead.Lines, rest.Lines = s.Lines[:end], s.Lines[end:]
		} else if s.StartLine > 0 {
			rest.StartLine = s.StartLine + end
		}
		out := append(append([]Section(nil), secs[:i]...), lead)
		if strings.TrimSpace(rest.Text) != "" {
			out = append(out, rest)
		}
		return append(out, secs[i+1:]...)
	}
	return secs
}

// definitionLevel is the heading level of a definition: under .SH (1) and
// .SS (2).
const definitionLevel = 3

// withDefinitions adds to a page's headings one for each definition of a
// section that is a list of them ("-m mode" / "--mode=mode" above "Specifies
// the shutdown mode. …" in OPTIONS, "lockmode" above "The lock mode
// specifies …" in PARAMETERS), titled by its term: each option or
// parameter is then a section, and a chunk, of its own ("OPTIONS > -m mode,
// --mode=mode"). An option's paragraph is what answers about it, and in a
// chunk of twenty options it ranks under shorter passages that only
// mention its words. A section with fewer than two definitions is left
// whole.
func withDefinitions(lines []string, verbatim []bool, heads []heading) []heading {
	var out []heading
	add := func(from, to int) { // the definitions of lines[from:to]
		var defs []heading
		for i := from; i < to; i++ {
			if i > from && strings.TrimSpace(lines[i-1]) != "" || verbatim[i] {
				continue // not a paragraph's first line, or code
			}
			if title, ok := definitionTerm(lines[i:to]); ok {
				defs = append(defs, heading{at: i, level: definitionLevel, title: title, term: true})
			}
		}
		if len(defs) >= 2 {
			out = append(out, defs...)
		}
	}
	start := 0
	for _, h := range heads {
		add(start, h.at)
		out = append(out, h)
		start = h.at + 1
	}
	add(start, len(lines))
	slices.SortStableFunc(out, func(a, b heading) int { return a.at - b.at })
	return out
}

// named names each section of one definition by its terms (Symbol), as a
// code chunk is named by what it declares: "-m, --mode" for "-m mode,
// --mode=mode", "ANALYZE", "PGDATA". The names are searched with the
// page's title, so "EXPLAIN ANALYZE" finds EXPLAIN's ANALYZE parameter
// before the examples that run it.
func named(secs []Section, heads []heading) {
	terms := map[string]string{} // heading path's last title -> the terms' names
	for _, h := range heads {
		if h.term {
			terms[h.title] = termNames(h.title)
		}
	}
	for i, s := range secs {
		if s.Symbol != "" {
			continue
		}
		last := s.Heading
		if j := strings.LastIndex(last, " > "); j >= 0 {
			last = last[j+3:]
		}
		if name, ok := terms[last]; ok {
			secs[i].Symbol = name
		}
	}
}

// termNames is a definition's title without its options' arguments:
// "-m mode, --mode=mode" is "-m, --mode"; a term stays as it is.
func termNames(title string) string {
	parts := strings.Split(title, ", ")
	for i, p := range parts {
		if strings.HasPrefix(p, "-") {
			p, _, _ = strings.Cut(p, " ")
			p, _, _ = strings.Cut(p, "=")
			p, _, _ = strings.Cut(p, "[")
			parts[i] = p
		}
	}
	return strings.Join(parts, ", ")
}

// maxTermWords is the longest term a definition opens with: "RESTART
// IDENTITY", "WITH GRANT OPTION", "\x [ on | off | auto ]".
const maxTermWords = 8

// optionTag is a line that is a command-line option and its argument:
// "-m mode", "--mode=mode", "-?".
var optionTag = regexp.MustCompile(`^--?[A-Za-z0-9?][\w=\[\]|.,-]*(\s+\S+){0,3}$`)

// definitionTerm reports whether a paragraph (lines up to a blank line)
// opens a definition, and its title: option lines ("-m mode", "--mode=mode")
// or a short term without sentence punctuation ("lockmode", "PGDATA"),
// above a description that reads as prose.
func definitionTerm(lines []string) (string, bool) {
	var tags []string
	i := 0
	for ; i < len(lines) && optionTag.MatchString(strings.TrimSpace(lines[i])); i++ {
		tags = append(tags, strings.TrimSpace(lines[i]))
	}
	if len(tags) == 0 {
		t := strings.TrimSpace(lines[0])
		if t == "" || len(strings.Fields(t)) > maxTermWords || strings.ContainsAny(t[len(t)-1:], ".:;,!?([{") || strings.HasPrefix(t, "$") {
			return "", false
		}
		tags, i = []string{t}, 1
	}
	if i >= len(lines) {
		return "", false
	}
	desc := strings.TrimSpace(lines[i])
	if desc == "" || len(strings.Fields(desc)) < 3 || optionTag.MatchString(desc) {
		return "", false // a term needs its description under it
	}
	return strings.Join(tags, ", "), true
}

type manPage struct {
	title   string
	lines   []string
	lineNos []int
	// verbatim marks the lines of no-fill text (.nf, .EX): commands and
	// code, never a definition's term.
	verbatim []bool
	heads    []heading
}

// roffText converts roff source to text lines, each with its source line.
func roffText(src string) manPage {
	var m manPage
	srcLines := strings.Split(strings.ReplaceAll(src, "\r\n", "\n"), "\n")
	// In fill mode (roff's default) text lines join into one line until a
	// break; in no-fill mode (.nf, .EX: commands, code) lines stay.
	fill := true
	put := func(l string, no int) {
		m.lines = append(m.lines, l)
		m.lineNos = append(m.lineNos, no)
		m.verbatim = append(m.verbatim, !fill)
	}
	cur, curNo := "", 0
	brk := func() {
		if cur != "" {
			put(cur, curNo)
			cur = ""
		}
	}
	emit := func(l string, no int) {
		if !fill {
			brk()
			put(l, no)
			return
		}
		if strings.TrimSpace(l) == "" {
			return
		}
		if cur == "" {
			cur, curNo = strings.TrimLeft(l, " "), no
			return
		}
		cur += " " + strings.TrimSpace(l)
	}
	blank := func(no int) {
		brk()
		if n := len(m.lines); n > 0 && m.lines[n-1] != "" {
			put("", no)
		}
	}
	head := func(level int, title string, no int) {
		title = strings.TrimSpace(title)
		if title == "" {
			return
		}
		blank(no)
		m.heads = append(m.heads, heading{at: len(m.lines), level: level, title: title})
		put(title, no)
		// The heading is a line of its own: "NAME", then the name line
		// (not "NAME pg_dump - extract …" run together).
		put("", no)
	}
	thName := ""
	tagNext := false // the next text line is a .TP tag
	nameSection := false
	pendingHead := 0 // .SH with its title on the next line
	skipUntil := ""  // end of an ignored block (.de ... ..)
	ieHeld := -1     // whether the last .ie's condition held (1, 0), -1 when unknown
	for i := 0; i < len(srcLines); i++ {
		raw, no := srcLines[i], i+1
		// Join escaped newlines ("\" at the end of a line).
		for strings.HasSuffix(raw, `\`) && !strings.HasSuffix(raw, `\\`) && i+1 < len(srcLines) {
			i++
			raw = raw[:len(raw)-1] + srcLines[i]
		}
		if skipUntil != "" {
			if strings.HasPrefix(raw, skipUntil) {
				skipUntil = ""
			}
			continue
		}
		if raw == "" {
			blank(no)
			continue
		}
		// A conditional on the output device: its body is read as a
		// line of its own when it holds for a terminal, skipped when not
		// (see nroffCondition).
		if body, ok := nroffCondition(raw, &ieHeld); ok {
			if body == "" {
				continue
			}
			raw = body
		}
		if raw[0] != '.' && raw[0] != '\'' {
			l := roffInline(raw)
			if pendingHead > 0 {
				head(pendingHead, l, no)
				pendingHead = 0
				continue
			}
			emit(l, no)
			if tagNext {
				// .TP's tag is a line of its own, above its description.
				brk()
				tagNext = false
			}
			if nameSection && m.title == "" && strings.TrimSpace(cur) != "" {
				m.title = strings.TrimSpace(cur)
			}
			continue
		}
		req, args := roffRequest(raw)
		switch req {
		case `\"`, `\}`, "":
			// comment, end of a conditional block, empty request
		case "TH", "Dt":
			if len(args) >= 2 {
				thName = strings.ToLower(args[0]) + "(" + args[1] + ")"
			}
		case "SH", "Sh":
			nameSection = strings.EqualFold(strings.Join(args, " "), "NAME")
			if len(args) == 0 {
				pendingHead = 1
			} else {
				head(1, roffInline(strings.Join(args, " ")), no)
			}
		case "SS", "Ss":
			if len(args) == 0 {
				pendingHead = 2
			} else {
				head(2, roffInline(strings.Join(args, " ")), no)
			}
		case "PP", "LP", "P", "sp", "Pp", "TP", "TQ", "HP", "Bl", "El", "Bd", "Ed":
			blank(no)
			tagNext = req == "TP" || req == "TQ"
		case "IP", "It":
			blank(no)
			if req == "IP" && len(args) > 1 {
				args = args[:1] // .IP tag indent: the indent is not text
			}
			if t := roffInline(strings.Join(args, " ")); strings.TrimSpace(t) != "" {
				emit(t, no)
				if req == "IP" {
					brk()
				}
			}
		case "br":
			brk()
		case "nf", "EX":
			brk()
			fill = false
		case "fi", "EE":
			brk()
			fill = true
		case "RS", "RE":
			// An indented block (the description under a term: "-r rate"
			// .RS "Sets the maximum …") starts and ends a line.
			brk()
		case "in", "ta", "ft", "ne", "ad", "na", "hy", "nh", "ll",
			"if", "ie", "el", "ds", "nr", "so", "mso", "ti", "fam", "UE", "ME", "PD", "Os", "Dd", "cstyle", "ps", "vs", "tr", "cc", "hw", "ig":
			if req == "ig" {
				skipUntil = ".."
			}
		case "de", "de1", "am":
			skipUntil = ".."
		case "B", "I", "SM", "SB", "BR", "BI", "IR", "RB", "RI", "IB", "UR", "MT":
			joined := strings.Join(args, " ")
			if len(req) == 2 && req != "SM" && req != "SB" && req != "UR" && req != "MT" {
				joined = strings.Join(args, "") // alternating fonts: no spaces between
			}
			if req == "UR" || req == "MT" {
				joined = "<" + joined + ">"
			}
			emit(roffInline(joined), no)
			if tagNext {
				brk()
				tagNext = false
			}
		case "Nm", "Nd", "Fl", "Ar", "Op", "Xr", "Pa", "Cm", "Ic", "Li", "Sq", "Dq", "Ql", "Em", "Sy", "Va", "Ev",
			"Dv", "Er", "Fn", "Fa", "Ft", "Fd", "In", "Vt", "Ad", "An", "Lk", "Mt", "Ms", "Tn", "Ux", "Bx", "At", "St", "Rs", "Re", "%A", "%T", "D1", "Dl":
			emit(mdocLine(req, args), no)
		default:
			// Unknown request: its arguments may be text (some pages use
			// their own macros); keep them when they look like words.
			if len(args) > 0 && len(req) > 2 {
				emit(roffInline(strings.Join(args, " ")), no)
			}
		}
	}
	brk()
	if m.title == "" {
		m.title = thName
	}
	return m
}

// deviceCondition finds a conditional request on the output device
// (".ie n .IP "createcluster.opts" 4", ".if t .sp 0.5", ".el .IP …"), as
// pod2man writes a term's line once for a terminal and once for a
// typesetter: "n" holds for a terminal, "t" for a typesetter, "!"
// negates.
var deviceCondition = regexp.MustCompile(`^[.']\s*(ie|if|el)\b\s*(?:(!?)([nt])\s+)?(.*)$`)

// nroffCondition reads a conditional on the output device as a terminal
// does (see deviceCondition): ok is false for any other line, or a
// condition on anything else (a number register, a string), which is left
// to the request switch; body is the line to read in its place, "" when
// the condition does not hold. An ".el" takes the opposite of the last
// ".ie" read here (ieHeld: 1, 0, or -1 when that was no device
// condition). A body that opens a block ("\{") is left alone too.
func nroffCondition(raw string, ieHeld *int) (body string, ok bool) {
	m := deviceCondition.FindStringSubmatch(raw)
	if m == nil {
		return "", false
	}
	req, neg, dev, rest := m[1], m[2], m[3], strings.TrimSpace(m[4])
	if strings.HasPrefix(rest, `\{`) {
		if req == "ie" {
			*ieHeld = -1
		}
		return "", false
	}
	held := false
	switch req {
	case "el":
		if dev != "" || *ieHeld < 0 {
			return "", false
		}
		held = *ieHeld == 0
		*ieHeld = -1
	default:
		if dev == "" {
			if req == "ie" {
				*ieHeld = -1
			}
			return "", false
		}
		held = (dev == "n") != (neg == "!")
		if req == "ie" {
			*ieHeld = 0
			if held {
				*ieHeld = 1
			}
		}
	}
	if !held || rest == "" {
		return "", true
	}
	return rest, true
}

// roffRequest splits a request line into its name and its arguments
// (double quotes group words; two quotes inside them are one).
func roffRequest(l string) (string, []string) {
	l = strings.TrimSpace(l[1:])
	if strings.HasPrefix(l, `\"`) {
		return `\"`, nil
	}
	if strings.HasPrefix(l, `\}`) {
		return `\}`, nil
	}
	name, rest, _ := strings.Cut(l, " ")
	// A request's name holds no escape: in ".el\{\" (pod2man's preamble,
	// its next line joined on) the name is "el" and what follows belongs
	// to the conditional, not a request "el\{." whose arguments are text.
	if i := strings.IndexByte(name, '\\'); i > 0 {
		name, rest = name[:i], name[i:]+" "+rest
	}
	if i := strings.Index(rest, `\"`); i >= 0 {
		rest = rest[:i]
	}
	var args []string
	for rest = strings.TrimSpace(rest); rest != ""; rest = strings.TrimSpace(rest) {
		if rest[0] == '"' {
			// Inside quotes, "" is a quote (pod2man's """auto""" is
			// "auto" in quotes).
			var arg strings.Builder
			i := 1
			for ; i < len(rest); i++ {
				if rest[i] == '"' {
					if i+1 < len(rest) && rest[i+1] == '"' {
						arg.WriteByte('"')
						i++
						continue
					}
					break
				}
				arg.WriteByte(rest[i])
			}
			args = append(args, arg.String())
			rest = rest[min(i+1, len(rest)):]
			continue
		}
		w, r, _ := strings.Cut(rest, " ")
		args = append(args, w)
		rest = r
	}
	return name, args
}

// mdocLine renders an mdoc macro line: flags get their dash, nested macro
// names are dropped.
func mdocLine(req string, args []string) string {
	var out []string
	flag := req == "Fl"
	for _, a := range args {
		if len(a) == 2 && a[0] >= 'A' && a[0] <= 'Z' && a[1] >= 'a' && a[1] <= 'z' {
			flag = a == "Fl"
			continue
		}
		if flag {
			a = "-" + a
		}
		out = append(out, a)
	}
	s := roffInline(strings.Join(out, " "))
	if req == "Nd" {
		s = "- " + s
	}
	return s
}

// roffChars are roff's named characters as plain text.
var roffChars = map[string]string{
	"em": "—", "en": "–", "bu": "•", "aq": "'", "dq": `"`, "lq": "“", "rq": "”", "oq": "‘", "cq": "’",
	"hy": "-", "mi": "-", "pl": "+", "eq": "=", "co": "©", "rg": "®", "tm": "™", "de": "°", "ti": "~",
	"ha": "^", "rs": `\`, "sl": "/", "ga": "`", "aa": "´", "Aq": "'", "R": "®", "ba": "|", "br": "|",
	"ul": "_", "->": "→", "<-": "←", "mu": "×", "<=": "≤", ">=": "≥", "!=": "≠", "sq": "□", "fm": "′",
}

// roffInline replaces roff escapes in a text line by plain characters.
func roffInline(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch e := s[i]; e {
		case 'f', 's', 'm', 'M', 'n', 'k', 'F', 'g', 'Y', 'V': // font, size, colour, register: drop
			i = skipEscapeArg(s, i+1, e == 's')
		case '*': // string: a few are quotes
			j := skipEscapeArg(s, i+1, false)
			name := strings.Trim(s[i+1:j+1], "([]")
			b.WriteString(roffChars[name])
			i = j
		case '(': // \(xx
			if i+2 < len(s) {
				b.WriteString(roffChars[s[i+1:i+3]])
				i += 2
			}
		case '[': // \[name]
			end := strings.IndexByte(s[i:], ']')
			if end < 0 {
				continue
			}
			b.WriteString(roffChars[s[i+1:i+end]])
			i += end
		case 'h', 'v', 'w', 'o', 'l', 'L', 'D', 'x', 'b', 'X', 'Z', 'R', 'A', 'B', 'C', 'N': // quoted argument: drop
			if i+1 < len(s) {
				q := s[i+1]
				if end := strings.IndexByte(s[i+2:], q); end >= 0 {
					i += end + 2
				}
			}
		case '-':
			b.WriteByte('-')
		case 'e', '\\':
			b.WriteByte('\\')
		case '~', ' ', '0':
			b.WriteByte(' ')
		case '&', '|', '^', '%', 'c', ':', ')', '/', ',', 'd', 'u', 'p', 'r', 't', 'z', '{', '}', 'a':
			// zero-width or layout: nothing
		case '"':
			return b.String() // comment to the end of the line
		case '.':
			b.WriteByte('.')
		case '\'':
			b.WriteByte('\'')
		case '`':
			b.WriteByte('`')
		default:
			b.WriteByte(e)
		}
	}
	return b.String()
}

// skipEscapeArg returns the index of the last byte of an escape's argument
// starting at i: one character, "(xx", "[name]", or for \s a signed number.
func skipEscapeArg(s string, i int, size bool) int {
	if i >= len(s) {
		return len(s) - 1
	}
	switch s[i] {
	case '(':
		return min(i+2, len(s)-1)
	case '[':
		if end := strings.IndexByte(s[i:], ']'); end >= 0 {
			return i + end
		}
		return len(s) - 1
	case '\'':
		if end := strings.IndexByte(s[i+1:], '\''); end >= 0 {
			return i + 1 + end
		}
	}
	if size {
		j := i
		if s[j] == '+' || s[j] == '-' {
			j++
		}
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		return max(i, j-1)
	}
	return i
}
