package ingest

import (
	"regexp"
	"strings"
)

// heading is a heading found in a document's lines: it starts at line at
// (0-based) and has a level (1 for the top) and a title.
type heading struct {
	at, level int
	title     string
	// term is true for the heading of a definition (a manual's option or
	// parameter), which names its section (see named).
	term bool
}

// headingSections cuts lines into one section per heading, from the
// heading's line to the next heading; each section's Heading is its path of
// titles ("Install > From source"). A heading with nothing under it but
// the next heading goes with that next section, so no chunk is a bare
// heading. lineNos, when set, gives the document line of each line.
func headingSections(lines []string, hs []heading, lineNos []int) []Section {
	var secs []Section
	var path []heading
	pending := -1 // start of a heading-only section carried into the next
	add := func(from, to int, hd string) {
		if pending >= 0 {
			from, pending = pending, -1
		}
		for from < to && strings.TrimSpace(lines[from]) == "" {
			from++
		}
		for to > from && strings.TrimSpace(lines[to-1]) == "" {
			to--
		}
		if from >= to {
			return
		}
		s := Section{Text: strings.Join(lines[from:to], "\n"), Heading: hd, StartLine: from + 1}
		if hd != "" {
			s.Kind = KindSection
		}
		if lineNos != nil {
			s.Lines, s.StartLine = lineNos[from:to], 0
		}
		secs = append(secs, s)
	}
	titles := func() string {
		ts := make([]string, len(path))
		for i, h := range path {
			ts[i] = h.title
		}
		return strings.Join(ts, " > ")
	}
	start := 0
	for i, h := range hs {
		if start < h.at {
			add(start, h.at, titles())
		}
		for len(path) > 0 && path[len(path)-1].level >= h.level {
			path = path[:len(path)-1]
		}
		path = append(path, h)
		start = h.at
		end := len(lines)
		if i+1 < len(hs) {
			end = hs[i+1].at
		}
		if onlyHeading(lines[h.at:end]) && i+1 < len(hs) {
			if pending < 0 {
				pending = h.at
			}
			start = end
		}
	}
	add(start, len(lines), titles())
	return secs
}

// onlyHeading reports whether a section's lines hold at most its heading's
// markup: non-blank lines that are the title and its under- or overline.
func onlyHeading(lines []string) bool {
	n := 0
	for _, l := range lines {
		if t := strings.TrimSpace(l); t != "" && !isRSTRule(t) {
			n++
		}
	}
	return n <= 1
}

var (
	atxHeading = regexp.MustCompile(`^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$`)
	setextRule = regexp.MustCompile(`^ {0,3}(=+|-+)[ \t]*$`)
)

// markdownSections cuts Markdown at its headings (ATX "## Title" and
// setext underlines), never inside a fenced code block.
func markdownSections(text string) []Section {
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	var hs []heading
	fence := ""
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if fence != "" {
			if strings.HasPrefix(t, fence) {
				fence = ""
			}
			continue
		}
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			fence = t[:3]
			continue
		}
		if m := atxHeading.FindStringSubmatch(l); m != nil && strings.TrimSpace(m[2]) != "" {
			hs = append(hs, heading{at: i, level: len(m[1]), title: strings.TrimSpace(m[2])})
			continue
		}
		// Setext: a one-line paragraph underlined with = (level 1) or - (2).
		if i > 0 && setextRule.MatchString(l) && strings.TrimSpace(lines[i-1]) != "" &&
			(i == 1 || strings.TrimSpace(lines[i-2]) == "") && !startsListItem(lines[i-1]) &&
			(len(hs) == 0 || hs[len(hs)-1].at != i-1) {
			level := 1
			if strings.Contains(l, "-") {
				level = 2
			}
			hs = append(hs, heading{at: i - 1, level: level, title: strings.TrimSpace(lines[i-1])})
		}
	}
	return headingSections(lines, hs, nil)
}

func startsListItem(l string) bool {
	t := strings.TrimLeft(l, " \t")
	return len(t) > 1 && strings.ContainsRune("-*+", rune(t[0])) && t[1] == ' '
}

// isRSTRule reports whether t is a reStructuredText section adornment: one
// punctuation character repeated, at least three times.
func isRSTRule(t string) bool {
	if len(t) < 3 || !strings.ContainsRune("=-~^\"'`#*+:._", rune(t[0])) {
		return false
	}
	return strings.Count(t, t[:1]) == len(t)
}

// rstSections cuts reStructuredText at its section titles: a line
// underlined (and maybe overlined) with a punctuation character at least
// as long as the title. Levels follow the order in which each adornment
// style first appears, as docutils does.
func rstSections(text string) []Section {
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	var hs []heading
	styles := map[string]int{}
	for i := 1; i < len(lines); i++ {
		under := strings.TrimSpace(lines[i])
		title := strings.TrimSpace(lines[i-1])
		if !isRSTRule(under) || title == "" || isRSTRule(title) || len([]rune(under)) < len([]rune(title)) ||
			strings.HasPrefix(lines[i-1], " ") {
			continue
		}
		at, style := i-1, under[:1]
		if i >= 2 && strings.TrimSpace(lines[i-2]) == under {
			at, style = i-2, "over"+style
		}
		level, ok := styles[style]
		if !ok {
			level = len(styles) + 1
			styles[style] = level
		}
		hs = append(hs, heading{at: at, level: level, title: title})
	}
	return headingSections(lines, hs, nil)
}
