package llm

import (
	"slices"
	"strings"
	"unicode"

	"github.com/graphrag/graphrag"
)

// Small models over-fill structured fields: a filter the user never asked
// for ("file_types": ["pdf"] for a question about notes) empties the
// search, and a fact the chunk never stated poisons the answer. These
// checks keep only what the user's words or the chunk's text support.

// typeWords maps words a user says to the file types they mean.
var typeWords = map[string][]string{
	"pdf": {"pdf", "pdfs"}, "md": {"md", "markdown"}, "txt": {"txt", "text"},
	"docx": {"docx", "doc", "word"}, "doc": {"doc", "word"}, "xlsx": {"xlsx", "excel", "spreadsheet", "spreadsheets"},
	"csv": {"csv", "spreadsheet", "spreadsheets"}, "html": {"html", "htm", "web page", "webpage"},
	"png":  {"png", "image", "images", "photo", "photos", "picture", "pictures", "screenshot", "screenshots"},
	"jpg":  {"jpg", "jpeg", "image", "images", "photo", "photos", "picture", "pictures"},
	"jpeg": {"jpg", "jpeg", "image", "images", "photo", "photos"},
	"go":   {"go", "golang"}, "py": {"py", "python"}, "js": {"js", "javascript"}, "ts": {"ts", "typescript"},
	"json": {"json"}, "yaml": {"yaml", "yml"}, "yml": {"yaml", "yml"},
}

var timeWords = map[graphrag.TimeWindow][]string{
	graphrag.TimeToday:     {"today", "tonight", "this morning", "this afternoon"},
	graphrag.TimeThisWeek:  {"week", "recent", "recently", "latest", "newest", "lately", "few days"},
	graphrag.TimeThisMonth: {"month", "recent", "recently", "latest", "newest", "lately"},
}

// groundPlan drops the filters of p that the query and history do not
// mention, and says which in the returned list.
func groundPlan(p graphrag.Plan, query string, history []graphrag.Turn) (graphrag.Plan, []string) {
	var said strings.Builder
	said.WriteString(query)
	for _, t := range history {
		said.WriteString(" \n " + t.Query)
	}
	text := " " + strings.Join(words(said.String()), " ") + " "
	mentions := func(w string) bool { return strings.Contains(text, " "+strings.Join(words(w), " ")+" ") }
	var dropped []string
	var types []string
	for _, t := range p.FileTypes {
		ok := mentions(t)
		for _, w := range typeWords[t] {
			ok = ok || mentions(w)
		}
		if ok {
			types = append(types, t)
		} else {
			dropped = append(dropped, "file type "+t)
		}
	}
	p.FileTypes = types
	if p.SourceHint != "" && !strings.Contains(strings.ToLower(said.String()), strings.ToLower(p.SourceHint)) {
		dropped = append(dropped, "source "+p.SourceHint)
		p.SourceHint = ""
	}
	if p.Time != graphrag.TimeAny && !slices.ContainsFunc(timeWords[p.Time], mentions) {
		dropped = append(dropped, "time "+string(p.Time))
		p.Time = graphrag.TimeAny
	}
	return p, dropped
}

// groundFacts keeps the facts whose words are in the chunk they cite. A
// fact that fits another shown chunk instead is moved to it (small models
// misnumber); a fact that fits none is dropped. Every number in a fact
// must be in its chunk.
func groundFacts(facts []GradedFact, hits []graphrag.Hit) (kept []GradedFact, dropped int) {
	sets := make([]map[string]bool, len(hits))
	for i, h := range hits {
		sets[i] = map[string]bool{}
		for _, w := range words(h.Chunk.Text) {
			sets[i][w] = true
		}
	}
	for _, f := range facts {
		if supported(f.Text, sets[f.Chunk-1]) {
			kept = append(kept, f)
			continue
		}
		moved := false
		for i, set := range sets {
			if i != f.Chunk-1 && supported(f.Text, set) {
				kept = append(kept, GradedFact{Chunk: i + 1, Text: f.Text})
				moved = true
				break
			}
		}
		if !moved {
			dropped++
		}
	}
	return kept, dropped
}

// supported: at least half of the fact's content words, and all of its
// numbers, are in the chunk.
func supported(fact string, chunk map[string]bool) bool {
	content, found := 0, 0
	for _, w := range words(fact) {
		isNum := strings.IndexFunc(w, unicode.IsDigit) >= 0
		if !isNum && len([]rune(w)) < 3 {
			continue
		}
		content++
		if chunk[w] {
			found++
		} else if isNum {
			return false
		}
	}
	return content > 0 && 2*found >= content
}

// words lower-cases s and splits it into letter-or-digit runs; "1,240"
// stays one word so numbers compare whole. It is not internal/text's
// Tokenize on purpose: Tokenize splits "1,240" at the comma (a model's
// fact "1,240" would then be supported by any chunk holding "1" and
// "240") and keeps "o'brien" and "file.txt" whole, which a model's
// paraphrase may not.
func words(s string) []string {
	var out []string
	var cur []rune
	rs := []rune(strings.ToLower(s))
	for i, r := range rs {
		keep := unicode.IsLetter(r) || unicode.IsDigit(r)
		if !keep && (r == ',' || r == '.') && len(cur) > 0 && unicode.IsDigit(cur[len(cur)-1]) && i+1 < len(rs) && unicode.IsDigit(rs[i+1]) {
			keep = true
		}
		if keep {
			cur = append(cur, r)
			continue
		}
		if len(cur) > 0 {
			out = append(out, string(cur))
			cur = cur[:0]
		}
	}
	if len(cur) > 0 {
		out = append(out, string(cur))
	}
	return out
}
