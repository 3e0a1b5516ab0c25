package ingest

import (
	"strings"

	"golang.org/x/net/html"
)

// htmlPage is the readable text of an HTML page as lines, each with the
// source line it starts on, and its headings (h1-h6).
type htmlPage struct {
	title   string
	lines   []string
	lineNos []int
	heads   []heading
}

// skippedElements hold no readable text.
var skippedElements = map[string]bool{"script": true, "style": true, "noscript": true, "template": true, "svg": true, "math": true, "iframe": true, "object": true}

var blockTags = map[string]bool{}

func init() {
	for _, t := range strings.Fields("p div section article header footer nav aside main h1 h2 h3 h4 h5 h6 ul ol li dl dt dd table tr thead tbody tfoot caption blockquote pre hr figure figcaption form fieldset address details summary body html") {
		blockTags[t] = true
	}
}

// parseHTML extracts the readable text, the <title> and the headings of an
// HTML page with golang.org/x/net/html's tokenizer, in one pass (linear in
// the input, however malformed): tags are dropped, script, style and
// similar elements skipped, block elements become paragraph breaks, <br>,
// table cells and <pre> lines become line breaks, entities are decoded.
func parseHTML(src string) htmlPage {
	var p htmlPage
	z := html.NewTokenizer(strings.NewReader(src))
	line := 1
	var cur strings.Builder
	curNo := 0
	skip := "" // element whose content is skipped
	inTitle := false
	var title strings.Builder
	inHead := false
	pre := 0
	headLevel := 0
	put := func(l string, no int) {
		p.lines = append(p.lines, l)
		p.lineNos = append(p.lineNos, no)
	}
	flush := func() {
		text := cur.String()
		cur.Reset()
		if pre == 0 {
			text = collapse(text)
		} else {
			text = strings.TrimRight(text, " \t\r")
		}
		if text != "" || pre > 0 {
			put(text, curNo)
		}
		curNo = 0
	}
	para := func() {
		flush()
		if n := len(p.lines); n > 0 && p.lines[n-1] != "" {
			put("", line)
		}
	}
	write := func(s string) {
		if curNo == 0 {
			curNo = line
		}
		cur.WriteString(s)
	}
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			break
		}
		raw := z.Raw()
		here := line
		for _, c := range raw {
			if c == '\n' {
				line++
			}
		}
		switch tt {
		case html.TextToken:
			text := string(z.Text())
			switch {
			case skip != "":
			case inTitle:
				title.WriteString(text)
			case inHead:
			case pre > 0:
				parts := strings.Split(text, "\n")
				for i, part := range parts {
					if i > 0 {
						flush()
						curNo = here + i
					}
					if part != "" {
						if curNo == 0 {
							curNo = here + i
						}
						cur.WriteString(part)
					}
				}
			default:
				if strings.TrimSpace(text) != "" && curNo == 0 {
					curNo = here + strings.Count(text[:len(text)-len(strings.TrimLeft(text, " \t\r\n"))], "\n")
				}
				cur.WriteString(text)
			}
		case html.StartTagToken, html.SelfClosingTagToken, html.EndTagToken:
			name, _ := z.TagName()
			tag := string(name)
			end := tt == html.EndTagToken
			if skip != "" {
				if end && tag == skip {
					skip = ""
				}
				continue
			}
			switch {
			case skippedElements[tag]:
				if !end && tt != html.SelfClosingTagToken {
					skip = tag
				}
			case tag == "title":
				inTitle = !end && tt != html.SelfClosingTagToken
			case tag == "head":
				inHead = !end
			case tag == "body":
				inHead = false
				para()
			case tag == "br":
				flush()
			case tag == "td" || tag == "th":
				if !end {
					flush()
				}
			case tag == "pre":
				para()
				if end {
					pre = max(0, pre-1)
				} else {
					pre++
				}
			case len(tag) == 2 && tag[0] == 'h' && tag[1] >= '1' && tag[1] <= '6':
				if !end {
					para()
					headLevel = int(tag[1] - '0')
					continue
				}
				if headLevel > 0 {
					if t := collapse(cur.String()); t != "" {
						p.heads = append(p.heads, heading{at: len(p.lines), level: headLevel, title: t})
					}
					headLevel = 0
				}
				para()
			case blockTags[tag]:
				para()
			default:
				if tag == "img" && !end {
					for {
						k, v, more := z.TagAttr()
						if string(k) == "alt" && len(v) > 0 {
							write(" " + string(v) + " ")
						}
						if !more {
							break
						}
					}
				}
			}
		}
	}
	flush()
	for len(p.lines) > 0 && p.lines[len(p.lines)-1] == "" {
		p.lines, p.lineNos = p.lines[:len(p.lines)-1], p.lineNos[:len(p.lineNos)-1]
	}
	p.title = collapse(title.String())
	return p
}

// htmlText is the <title> and the readable text of an HTML page.
func htmlText(src string) (title, text string) {
	p := parseHTML(src)
	return p.title, strings.Join(p.lines, "\n")
}

// collapse turns runs of white space into one space.
func collapse(s string) string { return strings.Join(strings.Fields(s), " ") }
