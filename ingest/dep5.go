package ingest

import (
	"regexp"
	"strings"
)

// This file reads Debian's machine-readable copyright files (DEP-5,
// https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/):
// /usr/share/doc/*/copyright on a Debian system. Such a file is stanzas of
// fields ("Files: *", "Copyright: 1999-2022 Free Software Foundation,
// Inc.", "License: GPL-3+") separated by blank lines: a header stanza that
// names the upstream work (Upstream-Name, Upstream-Contact, Source), then
// one stanza per set of files, then stand-alone licence texts. Cut as
// plain text, a chunk mixes the stanzas, and the header's licence of the
// upstream work reads like any file list's.

// KindFields is the kind of a chunk of fields ("Name: value" lines with
// indented continuation lines), such as a DEP-5 stanza: each field is a
// unit an answer may quote.
const KindFields = "fields"

// dep5Format matches the first line of a DEP-5 file: the Format field with
// the specification's URL (or the DEP-5 draft's).
var dep5Format = regexp.MustCompile(`(?i)^Format(-Specification)?:\s*\S*(copyright-format|dep5|dep-5)`)

// isDEP5 reports whether text is a machine-readable copyright file: its
// first non-blank line is the Format field.
func isDEP5(text string) bool {
	for _, l := range strings.SplitN(text, "\n", 8) {
		if strings.TrimSpace(l) != "" {
			return dep5Format.MatchString(strings.TrimSpace(l))
		}
	}
	return false
}

// loadDEP5 is a DEP-5 file cut into its stanzas (see dep5Sections).
func loadDEP5(text string) Loaded {
	return Loaded{Text: text, Sections: dep5Sections(text)}
}

// dep5Sections cuts a DEP-5 file into one section per stanza, each of kind
// KindFields, lines the file's. The header stanza and the "Files: *"
// stanza right after it are one section: both are about the upstream work
// as a whole, which is what a question about the package asks ("who holds
// the copyright on gzip", "what license is sqlite3 under"). The section
// is named by the work (Symbol and Heading are its Upstream-Name), as a
// code chunk is by what it declares, so that a search for the work finds
// it before the stanzas of the files it names one by one. Any other stanza
// is headed by its first field: "Files: debian/*", "License: GPL-2+".
func dep5Sections(text string) []Section {
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	type stanza struct{ from, to int }
	var stanzas []stanza
	start := -1
	for i, l := range lines {
		switch blank := strings.TrimSpace(l) == ""; {
		case blank && start >= 0:
			stanzas = append(stanzas, stanza{start, i})
			start = -1
		case !blank && start < 0:
			start = i
		}
	}
	if start >= 0 {
		stanzas = append(stanzas, stanza{start, len(lines)})
	}
	upstream := ""
	var secs []Section
	for i := 0; i < len(stanzas); i++ {
		st := stanzas[i]
		first := strings.TrimSpace(lines[st.from])
		heading := fieldHeading(first)
		if i == 0 && dep5Format.MatchString(first) {
			upstream = fieldValue(lines[st.from:st.to], "Upstream-Name")
			heading = upstream
			if heading == "" {
				heading = "Header"
			}
			if i+1 < len(stanzas) && fieldValue(lines[stanzas[i+1].from:stanzas[i+1].to], "Files") == "*" {
				st.to = stanzas[i+1].to
				i++
			}
		}
		sec := Section{Text: strings.Join(lines[st.from:st.to], "\n"), Heading: heading, Kind: KindFields, StartLine: st.from + 1}
		if i <= 1 && upstream != "" && heading == upstream {
			sec.Symbol = upstream
		}
		secs = append(secs, sec)
	}
	return secs
}

// maxHeadingRunes bounds a heading taken from a field ("Files: a b c …").
const maxHeadingRunes = 80

// fieldHeading is a stanza's heading: its first field line, shortened.
func fieldHeading(line string) string {
	line = strings.Join(strings.Fields(line), " ")
	if r := []rune(line); len(r) > maxHeadingRunes {
		return string(r[:maxHeadingRunes]) + " …"
	}
	return line
}

// fieldValue is the value of a field of a stanza, its continuation lines
// joined with spaces ("" when the stanza has no such field).
func fieldValue(stanza []string, name string) string {
	for i, l := range stanza {
		k, v, ok := strings.Cut(l, ":")
		if !ok || !strings.EqualFold(k, name) || strings.HasPrefix(l, " ") || strings.HasPrefix(l, "\t") {
			continue
		}
		parts := []string{strings.TrimSpace(v)}
		for _, c := range stanza[i+1:] {
			if !strings.HasPrefix(c, " ") && !strings.HasPrefix(c, "\t") {
				break
			}
			parts = append(parts, strings.TrimSpace(c))
		}
		return strings.TrimSpace(strings.Join(parts, " "))
	}
	return ""
}
