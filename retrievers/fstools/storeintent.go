package fstools

import "strings"

// Questions about the store itself and about what the files say are
// recognised by short, explicit word lists: the wording people use for
// them is narrow, and a wrong match sends a question about content to a
// count, so each list errs on the side of not matching.

// storePhrases name the store or an ingest of the user's own.
var storePhrases = []string{
	"last ingest", "last ingested", "last ingestion", "latest ingest", "did i ingest", "have i ingested",
	"i ingested", "i've ingested", "ive ingested", "been ingested", "my ingest", "my ingests",
	"my index", "my search index", "the search index", "graphrag index", "graphrag's index",
	"my store", "graphrag store", "graphrag's store", "the graphrag store",
}

// storeStateWords say a file or folder is in the store; they name the store
// only beside a word for files or folders ("which columns are indexed" is
// a question about a database, "which folders are indexed" about the store).
var storeStateWords = []string{"indexed", "ingested"}

// contentWords ask what ingested files say, not about the store.
var contentWords = []string{"summarize", "summarise", "summary", "explain", "say", "says", "about", "describe", "tell me what"}

var storeObjectWords = []string{"files", "file", "folders", "folder", "directories", "directory", "documents", "roots", "paths"}

// AboutStore reports whether a question is about the store itself — what
// was ingested, when, how big the index is — which Answer answers from the
// store's record (ToolStore). A question that names a file type or a file
// ("how many PDFs are indexed") is a count, not about the store.
func AboutStore(query string) bool { return aboutStore(parse(query)) }

// AboutStore is the package function AboutStore, for callers that hold the
// tools (nodes.StoreQuestions).
func (t *Tools) AboutStore(query string) bool { return AboutStore(query) }

func aboutStore(p parsed) bool {
	if p.has("how do", "how can", "how to", "how should") {
		return false // how to ingest is a question for the documentation
	}
	if p.has(contentWords...) || mentionTerm(p) != "" {
		return false // "summarize the notes I ingested" is about their content
	}
	if !p.has(storePhrases...) && !(p.has(storeStateWords...) && p.has(storeObjectWords...)) {
		return false
	}
	name, target := p.names()
	return len(p.types()) == 0 && name == "" && target == ""
}

// mentionVerbs introduce what a file's text holds: "files that mention X",
// "documents containing X", "notes which talk about X".
var mentionVerbs = []string{
	"mention", "mentions", "mentioning", "contain", "contains", "containing",
	"reference", "references", "referencing", "talk about", "talks about", "talking about",
	"refer to", "refers to", "with the word", "with the words", "with the term",
}

// termLead are words between the verb and the term: "mention the word X".
var termLead = map[string]bool{"the": true, "a": true, "an": true, "word": true, "words": true, "term": true,
	"phrase": true, "string": true, "text": true, "of": true, "about": true}

// termEnd are words after which the term has ended: "files mentioning X in
// the notes folder", "… X this week".
var termEnd = map[string]bool{"in": true, "from": true, "under": true, "inside": true, "within": true, "this": true,
	"today": true, "yesterday": true, "since": true, "modified": true, "changed": true, "last": true, "and": true,
	"or": true, "do": true, "does": true, "are": true, "is": true, "have": true, "i": true}

// maxTermWords bounds a term read from unquoted text: a longer stretch is a
// question about content, not a term to count.
const maxTermWords = 3

// mentionTerm is the term a question asks files to mention, "" when it asks
// no such thing. The question must name files ("files", "documents",
// "notes", a type) before the verb; a quoted term wins.
func mentionTerm(p parsed) string {
	verbAt := -1
	for i := range p.low {
		for _, v := range mentionVerbs {
			vw := strings.Fields(v)
			if i+len(vw) <= len(p.low) && strings.Join(p.low[i:i+len(vw)], " ") == v {
				verbAt = i + len(vw)
				break
			}
		}
		if verbAt >= 0 {
			break
		}
	}
	if verbAt < 0 || verbAt >= len(p.low) {
		return ""
	}
	// The files are named before the verb: "which folders contain PDFs"
	// asks where files are, not what they say.
	named := false
	for _, w := range p.low[:verbAt] {
		named = named || fileNouns[w] || pluralTypes[w]
	}
	if !named && len(parse(strings.Join(p.orig[:verbAt], " ")).types()) == 0 {
		return ""
	}
	rest := p.low[verbAt:]
	if strings.Contains(" "+strings.Join(rest, " ")+" ", " in the name ") || strings.Contains(" "+strings.Join(rest, " ")+" ", " in their name") ||
		strings.HasSuffix(strings.Join(rest, " "), " in name") || strings.HasSuffix(strings.Join(rest, " "), " in names") {
		return "" // "files containing 2024 in the name" is a name search
	}
	for _, q := range p.quoted {
		if strings.TrimSpace(q) != "" {
			return q
		}
	}
	orig := p.orig[verbAt:]
	i := 0
	for i < len(rest) && termLead[rest[i]] {
		i++
	}
	var words []string
	for ; i < len(rest) && !termEnd[rest[i]]; i++ {
		words = append(words, orig[i])
	}
	if len(words) == 0 || len(words) > maxTermWords {
		return ""
	}
	if len(words) == 1 && isFileKind(strings.ToLower(words[0])) {
		return "" // "files containing images" asks for a kind of file
	}
	return strings.Join(words, " ")
}

// isFileKind reports whether a word names a kind of file ("pdfs",
// "images", "csv", "files") rather than a term to look for.
func isFileKind(w string) bool {
	w = strings.TrimPrefix(w, ".")
	return fileNouns[w] || pluralTypes[w] || typeSynonyms[w] != nil || knownExtensions[w] ||
		strings.HasSuffix(w, "s") && knownExtensions[w[:len(w)-1]]
}
