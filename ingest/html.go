package ingest

import (
	"html"
	"strings"
)

// htmlText extracts the readable text and the <title> of an HTML page: tags
// are dropped, script, style, noscript, template, svg and head content
// skipped (except the title), block elements become line breaks, and
// entities are decoded. It is a small tolerant scanner, not a full HTML5
// parser: malformed markup degrades to more or less text, never an error.
func htmlText(src string) (title, text string) {
	var b, t strings.Builder
	skip := "" // the element whose content is being skipped
	inTitle := false
	i := 0
	for i < len(src) {
		lt := strings.IndexByte(src[i:], '<')
		if lt < 0 {
			lt = len(src) - i
		}
		if lt > 0 {
			chunk := src[i : i+lt]
			switch {
			case inTitle:
				t.WriteString(chunk)
			case skip == "":
				b.WriteString(chunk)
			}
			i += lt
			if i >= len(src) {
				break
			}
		}
		// src[i] == '<'
		rest := src[i:]
		if strings.HasPrefix(rest, "<!--") {
			end := strings.Index(rest[4:], "-->")
			if end < 0 {
				break
			}
			i += 4 + end + 3
			continue
		}
		gt := tagEnd(rest)
		if gt < 0 {
			// A lone '<' in text.
			if skip == "" && !inTitle {
				b.WriteByte('<')
			}
			i++
			continue
		}
		tag := rest[1:gt]
		i += gt + 1
		closing := strings.HasPrefix(tag, "/")
		name := strings.ToLower(strings.TrimLeft(tag, "/!?"))
		if j := strings.IndexAny(name, " \t\r\n/>"); j >= 0 {
			name = name[:j]
		}
		if skip != "" {
			if closing && name == skip {
				skip = ""
			}
			continue
		}
		switch name {
		case "title":
			inTitle = !closing
			continue
		case "script", "style", "noscript", "template", "svg", "head":
			if !closing && !strings.HasSuffix(tag, "/") {
				if name == "head" {
					continue // keep scanning head for its title
				}
				skip = name
			}
			continue
		}
		if blockTags[name] {
			b.WriteString("\n\n")
		} else if name == "br" || name == "td" || name == "th" {
			b.WriteByte('\n')
		}
	}
	return collapse(html.UnescapeString(t.String())), tidy(html.UnescapeString(b.String()))
}

// tagEnd returns the index of the '>' closing the tag at the start of s,
// honouring quoted attribute values; -1 if s does not start a tag.
func tagEnd(s string) int {
	if len(s) < 2 {
		return -1
	}
	c := s[1]
	if !(c == '/' || c == '!' || c == '?' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
		return -1
	}
	var quote byte
	for j := 1; j < len(s); j++ {
		switch {
		case quote != 0:
			if s[j] == quote {
				quote = 0
			}
		case s[j] == '"' || s[j] == '\'':
			quote = s[j]
		case s[j] == '>':
			return j
		}
	}
	return -1
}

var blockTags = map[string]bool{}

func init() {
	for _, t := range strings.Fields("p div section article header footer nav aside main h1 h2 h3 h4 h5 h6 ul ol li dl dt dd table tr thead tbody blockquote pre hr figure figcaption form fieldset address details summary body html") {
		blockTags[t] = true
	}
}

// collapse turns runs of white space into one space.
func collapse(s string) string { return strings.Join(strings.Fields(s), " ") }

// tidy collapses white space within lines and keeps at most one blank line
// between paragraphs.
func tidy(s string) string {
	var out []string
	blank := false
	for _, l := range strings.Split(s, "\n") {
		l = collapse(l)
		if l == "" {
			blank = len(out) > 0
			continue
		}
		if blank {
			out = append(out, "")
			blank = false
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}
