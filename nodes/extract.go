package nodes

import (
	"regexp"
	"slices"
	"strings"

	"github.com/graphrag/graphrag"
)

var (
	// identifierPattern finds exact identifiers: error and ticket codes
	// (E1045, JIRA-4521, INV-2024-0317, CVE-2021-44228), hex codes,
	// versions (v1.2.3, 2.3.1), #numbers and long digit runs.
	identifierPattern = regexp.MustCompile(`(?i)(\b[a-z]{1,10}[-_/]?\d{2,}(?:[-_/.][a-z0-9]+)*\b|\b\d+[a-z]+\d*[a-z0-9]*\b|\b0x[0-9a-f]{2,}\b|\bv?\d+\.\d+(?:\.\d+)+\b|\bv\d+(?:\.\d+)?\b|#\d{2,}\b|\b\d{5,}\b|\b[A-Z]{2,}_[A-Z_]{2,}\b|\b[a-z]+_[a-z_0-9]+\b|(?-i:\b(?:[A-Z][a-z]+){2,}(?:Exception|Error)\b|\b[A-Z]{2,}[a-z]+[A-Za-z]*\b))`)
	// fileNamePattern finds file names with a known-looking extension.
	fileNamePattern = regexp.MustCompile(`(?i)\b[\w.-]+\.(pdf|docx?|xlsx?|pptx?|csv|txt|md|markdown|json|jsonl|ya?ml|toml|html?|go|py|js|ts|rs|java|c|cpp|h|sh|log|ini|conf|cfg|xml|sql|png|jpe?g|gif|svg|zip|tar|gz|mp3|mp4|mov|rpt|bam|properties)\b`)
	// arithmeticPattern finds calculations: "12 * 7", "15% of 68", "100 multiplied by 55".
	arithmeticPattern = regexp.MustCompile(`(?i)(\d\s*[-+*/x×^]\s*\d|\d+(\.\d+)?\s*%\s*of\s*\d|\d+\s*(plus|minus|times|multiplied by|divided by|over|to the power of)\s*\d|square root of \d|\d+\s*squared|\d+\s*cubed)`)
)

// fileTypeWords maps words users say to file types.
var fileTypeWords = map[string][]string{
	"pdf": {"pdf"}, "pdfs": {"pdf"},
	"markdown": {"md", "markdown"}, "md": {"md", "markdown"},
	"word": {"doc", "docx"}, "docx": {"docx"}, "doc": {"doc"},
	"spreadsheet": {"xlsx", "xls", "csv"}, "spreadsheets": {"xlsx", "xls", "csv"}, "excel": {"xlsx", "xls"},
	"csv": {"csv"}, "csvs": {"csv"},
	"slides": {"pptx", "ppt"}, "powerpoint": {"pptx", "ppt"}, "presentation": {"pptx", "ppt"}, "presentations": {"pptx", "ppt"},
	"html": {"html", "htm"}, "webpage": {"html", "htm"}, "webpages": {"html", "htm"},
	"text": {"txt"}, "txt": {"txt"},
	"image": {"png", "jpg", "jpeg", "gif"}, "images": {"png", "jpg", "jpeg", "gif"}, "photos": {"jpg", "jpeg", "png"}, "photo": {"jpg", "jpeg", "png"}, "pictures": {"jpg", "jpeg", "png"},
	"python": {"py"}, "go": {"go"}, "golang": {"go"}, "javascript": {"js"}, "typescript": {"ts"}, "rust": {"rs"},
	"json": {"json"}, "yaml": {"yaml", "yml"},
}

// fileTypeContext are words that make a file-type word mean files ("python
// files", "markdown notes") rather than a topic ("the python language").
var fileTypeContext = toSet(`file files doc docs document documents note notes paper papers pdf pdfs
sheet sheets script scripts source code folder folders in from only my among`)

// extractFileTypes finds a file-type filter: "pdfs", "in my markdown
// notes", "*.txt files".
func extractFileTypes(query string) []string {
	toks := tokenize(query)
	var out []string
	for i, t := range toks {
		types, ok := fileTypeWords[t.Lower]
		if !ok || inPath(query, t) {
			continue
		}
		// A format's name in the plural counts files ("which pdfs"); in the
		// singular it names the format ("export it as Markdown", "csv
		// quoting") unless a determiner makes it a file ("the pdf", "this
		// docx"). Other words need a neighbouring file word.
		strong := formatPlurals[t.Lower] || formatNames[t.Lower] && i > 0 && fileDeterminers[toks[i-1].Lower] && endsNounPhrase(toks, i)
		near := (i+1 < len(toks) && fileTypeContext[toks[i+1].Lower]) || (i > 0 && (toks[i-1].Lower == "my" && (languageWords[t.Lower] || endsNounPhrase(toks, i)) || toks[i-1].Lower == "the" && i+1 < len(toks) && fileTypeContext[toks[i+1].Lower]))
		if strong || near {
			for _, ty := range types {
				if !slices.Contains(out, ty) {
					out = append(out, ty)
				}
			}
		}
	}
	for _, m := range regexp.MustCompile(`\*\.(\w+)`).FindAllStringSubmatch(query, -1) {
		ty := strings.ToLower(m[1])
		if !slices.Contains(out, ty) {
			out = append(out, ty)
		}
	}
	return out
}

// formatPlurals are file-type words that count files of a format;
// formatNames are the formats' names, which count none alone.
var (
	formatPlurals = toSet(`pdfs csvs`)
	formatNames   = toSet(`pdf csv docx md markdown`)
)

// fileDeterminers make a format's name a file: "the pdf", "this docx"
// (see extractFileTypes; "my markdown" is one by the rule for "my").
var fileDeterminers = toSet(`the this that these those`)

// languageWords are the file-type words that name a programming language:
// before a noun they still say what the asker's files are written in ("my
// Go service").
var languageWords = toSet(`python go golang javascript typescript rust`)

// endsNounPhrase reports whether toks[i] is the last word of its noun
// phrase: the question ends there, or a function word follows ("in my
// text about …"). Before another noun it describes that noun: "my text
// search configuration" is no text file.
func endsNounPhrase(toks []token, i int) bool {
	return i+1 >= len(toks) || stopWords[toks[i+1].Lower]
}

// inPath reports whether a word of query is a part of a path or package
// name joined to its neighbour by "/" ("json" of "encoding/json", "pdf" of
// "tools/pdf/render", "python" of "python/lib"): it names a folder or a
// package, not a kind of file.
func inPath(query string, t token) bool {
	return t.Start > 0 && query[t.Start-1] == '/' || t.End < len(query) && query[t.End] == '/'
}

var (
	todayPattern     = regexp.MustCompile(`(?i)\b(today|tonight|this morning|this afternoon|last 24 hours|past 24 hours|past day|last day)\b`)
	thisWeekPattern  = regexp.MustCompile(`(?i)\b(this week|last 7 days|past 7 days|past week|last week)\b`)
	thisMonthPattern = regexp.MustCompile(`(?i)\b(this month|last 30 days|past 30 days|past month|last month)\b`)
)

// extractTime finds a relative time window. "last week" and "last month"
// map to the current week and month: a relative window the store can
// apply; an exact calendar range needs a language-model planner.
func extractTime(query string) graphrag.TimeWindow {
	switch {
	case todayPattern.MatchString(query):
		return graphrag.TimeToday
	case thisWeekPattern.MatchString(query):
		return graphrag.TimeThisWeek
	case thisMonthPattern.MatchString(query):
		return graphrag.TimeThisMonth
	}
	return graphrag.TimeAny
}

// sourceHintPattern finds a named folder or file the user points at:
// "in my taxes folder", "from the report.pdf", "in notes/2024".
//
// A quoted name counts only when a word for a folder or file follows it: in
// "an actor who performed in "The Young Ones"" the quotes name a work.
var sourceHintPattern = regexp.MustCompile(`(?i)\b(?:in|from|under|inside)\s+(?:my\s+|the\s+)?(?:"([^"]+)"\s+(?:folder|directory|dir|file|notes|document)\b|'([^']+)'\s+(?:folder|directory|dir|file|notes|document)\b|([\w.-]+/[\w./-]*)|([\w-]+\.(?:pdf|docx?|xlsx?|pptx?|csv|txt|md|markdown|json|jsonl|ya?ml|toml|html?|go|py|js|ts|rs|java|log|xml|sql))\b|([\w-]+)\s+(?:folder|directory|dir)\b)`)

// extractSourceHint returns the folder or file a query names, or "".
func extractSourceHint(query string) string {
	for _, m := range sourceHintPattern.FindAllStringSubmatch(query, -1) {
		if w := m[len(m)-1]; w != "" && stopWords[strings.ToLower(w)] {
			// "in its directory", "under this folder": no name.
			continue
		}
		for _, g := range m[1:] {
			if g != "" {
				return strings.TrimSuffix(g, "/")
			}
		}
	}
	return ""
}

// extractKeywords returns the query's content words, heaviest first, with
// exact identifiers kept whole. Its cost is linear in the query: words are
// deduplicated through sets, not by scanning what was kept so far (a scan
// made a 120,000-word query take 35 s).
func extractKeywords(query string) []string {
	var out []string
	ids := make(map[string]bool)
	folded := make(map[string]bool) // foldKey of every kept word
	for _, id := range identifierPattern.FindAllString(query, -1) {
		if !ids[id] {
			ids[id] = true
			folded[foldKey(id)] = true
			out = append(out, id)
		}
	}
	terms := contentTerms(query)
	slices.SortStableFunc(terms, func(a, b term) int {
		switch {
		case a.Weight > b.Weight:
			return -1
		case a.Weight < b.Weight:
			return 1
		}
		return 0
	})
	hasFileTypes := -1 // unknown until a file-type word asks
	for _, t := range terms {
		if fileTypeWords[t.Word] != nil {
			if hasFileTypes < 0 {
				hasFileTypes = min(len(extractFileTypes(query)), 1)
			}
			if hasFileTypes == 1 {
				continue
			}
		}
		if k := foldKey(t.Word); !folded[k] {
			folded[k] = true
			out = append(out, t.Word)
		}
	}
	return out
}

// foldKey maps words that strings.EqualFold treats as equal to one key
// (upper then lower case folds "ſ" with "s" and "K" with "k" too).
func foldKey(s string) string { return strings.ToLower(strings.ToUpper(s)) }
