package nodes

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/internal/text"
)

// This file answers a question about the release of a package that is
// installed: "which zorp version is installed", "which upstream frob
// version is packaged here", "what is the newest upload in zorp's
// changelog", and who maintains the package now. A Debian changelog
// lists its releases newest first (deb-changelog(5)), so the installed
// release is the first line of the package's changelog, and who maintains
// it signs that entry; the search, weighing the question's words, seldom
// ranks that passage first, since every entry of the changelog names the
// package. retrieve reads it (withNewestRelease), and select answers with
// it (candidate.newest).

// Openings is what Deps.Searcher may also do: read the first passage of
// documents, by ID, in the order given, skipping those it does not hold.
// retrieve finds it by type assertion; both stores have it.
type Openings interface {
	Openings(ctx context.Context, ids []string) ([]graphrag.Hit, error)
}

// releaseWords name what a question about a release asks for ("the
// latest security update").
var releaseWords = toSet(releaseWordList)

const releaseWordList = `version versions release releases revision revisions upload uploads update updates`

// presentWords, and the pairs of words presentPairs, say that the release
// asked about is the one in use: "installed", "packaged here", "the latest
// upload", "on this machine", "which version do I have".
var (
	presentWords = toSet(`installed here current currently latest newest`)
	presentPairs = [][2]string{{"most", "recent"}, {"this", "system"}, {"this", "machine"}, {"this", "computer"}, {"this", "host"}, {"i", "have"}}
)

// asksInstalledRelease reports whether a which or what question asks about
// the release of software in use (releaseWords and presentWords) and names
// no version: a question that names one asks about that release
// (releaseScope), and "how do I update the zorp installed here" asks for
// steps.
func asksInstalledRelease(query string) bool {
	if versionPattern.MatchString(query) {
		return false
	}
	toks := tokenize(query)
	release, present, which := false, false, false
	for i, t := range toks {
		which = which || t.Lower == "which" || t.Lower == "what"
		release = release || releaseWords[t.Lower]
		present = present || presentWords[t.Lower] ||
			i+1 < len(toks) && slices.Contains(presentPairs, [2]string{t.Lower, toks[i+1].Lower})
	}
	return which && release && present
}

// maintainWords ask who maintains a package ("who maintains zorp",
// "who is zorp's maintainer"), debianWords that the question asks about
// Debian's package, whose maintainers sign its changelog's entries; a
// question about the software itself, or "upstream", asks for the
// project's maintainers, whom the changelog does not name.
var (
	maintainWords = toSet(maintainWordList)
	debianWords   = toSet(`debian package packages`)
)

const maintainWordList = `maintains maintain maintainer maintainers`

// newestWordPattern finds a word of releaseWords or maintainWords in any
// case, so that a question with none is not tokenized (retrieve, evaluate
// and generate ask every question).
var newestWordPattern = regexp.MustCompile(`(?i)\b(` + strings.Join(strings.Fields(releaseWordList+" "+maintainWordList), "|") + `)\b`)

// asksPackageMaintainer reports whether a question asks who maintains a
// Debian package now: who signs the newest entry of its changelog.
func asksPackageMaintainer(query string) bool {
	if !asksForName(query) || versionPattern.MatchString(query) {
		return false
	}
	toks := tokenize(query)
	has := func(words map[string]bool) bool {
		return slices.ContainsFunc(toks, func(t token) bool { return words[t.Lower] })
	}
	return has(maintainWords) && has(debianWords) && !slices.ContainsFunc(toks, func(t token) bool { return t.Lower == "upstream" })
}

// asksNewestRelease reports whether a question is answered by the newest
// release of a package's changelog: it asks which release is installed,
// or who maintains the package.
func asksNewestRelease(query string) bool {
	if !newestWordPattern.MatchString(query) {
		return false
	}
	return asksInstalledRelease(query) || asksPackageMaintainer(query)
}

// newestReleaseLine is the line that opens a Debian changelog's passage
// when the passage is the first of its file: the newest release's
// ("zorp (3.4.1-2) bookworm; urgency=medium"); "" for any other
// passage. A NEWS.Debian file is written in the same form, and its first
// entry is the newest news, not the release installed.
func newestReleaseLine(h graphrag.Hit) string {
	if _, name := fileIn(h.Source.Path); h.Chunk.StartLine != 1 || docKind(name) != "changelog" {
		return ""
	}
	first, _, _ := strings.Cut(h.Chunk.Text, "\n")
	first = strings.TrimSpace(first)
	if !text.ChangelogRelease.MatchString(first) {
		return ""
	}
	return first
}

// Ways a question names the package of a changelog's newest release, by
// how surely (releaseNaming).
const (
	namesNone   = iota
	namesSource // the source package its release line names ("zorp")
	namesFolder // the folder the file is in, the binary package ("libzorp2")
)

// releaseNaming is how the question names the package whose newest
// release h opens with (newestReleaseLine). Names compare by their
// letters and digits alone: "Zorp.js" is the source "zorpjs".
func releaseNaming(question string, h graphrag.Hit) int {
	line := newestReleaseLine(h)
	if line == "" {
		return namesNone
	}
	source, _, _ := strings.Cut(line, " ")
	folder, _ := fileIn(h.Source.Path)
	source, folder = nameKey(source), nameKey(folder)
	naming := namesNone
	for _, w := range strings.Fields(question) {
		switch k := nameKey(w); {
		case k == "":
		case k == folder:
			return namesFolder
		case k == source:
			naming = namesSource
		}
	}
	return naming
}

// nameKey is a name's letters and digits, lower-cased.
func nameKey(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return unicode.ToLower(r)
		}
		return -1
	}, s)
}

// changelogs are the documents of hits that are changelogs ("changelog",
// "changelog.Debian.gz"), after those of docs, each once.
func changelogs(hits []graphrag.Hit, docs []string) []string {
	for _, h := range hits {
		if _, name := fileIn(h.Source.Path); docKind(name) == "changelog" && !slices.Contains(docs, h.Chunk.DocID) {
			docs = append(docs, h.Chunk.DocID)
		}
	}
	return docs
}

// withNewestRelease adds to hits the first passage of the changelog of
// each package the question names, when it asks for the release installed
// or who maintains the package (asksNewestRelease) and no hit is that
// passage. The changelogs are
// those among the hits and those a search of the changelogs finds; of
// their first passages, those whose package the question names
// (releaseNaming) join, its folder before its source, up to
// namedFolderHits texts; a copy of one (Debian ships a source package's
// changelog in each of its binary packages' folders) is named among its
// copies, not added. They take the places of the last hits.
func (p *pipeline) withNewestRelease(ctx context.Context, r *retrieval, hits []graphrag.Hit) []graphrag.Hit {
	q := r.Plan.Query
	op, ok := p.deps.Searcher.(Openings)
	if !ok || !asksNewestRelease(q) {
		return hits
	}
	docs := changelogs(hits, nil)
	f := r.Filters
	f.Source = "changelog"
	res, err := p.deps.Searcher.Search(ctx, graphrag.Query{Text: q, Mode: r.Mode, K: changelogSearchDepth * p.opts.K, Filters: f})
	if err != nil {
		r.note("retrieve: searching the changelogs failed: %v", err)
	}
	if docs = changelogs(res.Hits, docs); len(docs) == 0 {
		return hits
	}
	opened, err := op.Openings(ctx, docs)
	if err != nil {
		r.note("retrieve: reading the changelogs' newest releases failed: %v", err)
		return hits
	}
	// Each first passage names the others of the same text, whether the
	// question names their folders or not.
	naming := map[string]int{} // by chunk ID, how the question names it
	var named []graphrag.Hit
	for _, o := range withCopies(opened) {
		if n := releaseNaming(q, o); n != namesNone && !slices.ContainsFunc(hits, func(h graphrag.Hit) bool { return h.Chunk.ID == o.Chunk.ID }) {
			naming[o.Chunk.ID] = n
			named = append(named, o)
		}
	}
	slices.SortStableFunc(named, func(a, b graphrag.Hit) int { return naming[b.Chunk.ID] - naming[a.Chunk.ID] })
	var newest []graphrag.Hit
	for _, o := range named {
		if len(newest) < namedFolderHits && !slices.ContainsFunc(newest, func(n graphrag.Hit) bool { return n.Chunk.Text == o.Chunk.Text }) {
			newest = append(newest, o)
		}
	}
	if len(newest) == 0 {
		return hits
	}
	keep := max(0, min(len(hits), p.opts.K-len(newest)))
	return append(hits[:keep:keep], newest...)
}

// changelogSearchDepth is how many pages of hits the search of the
// changelogs reads: Debian ships a source package's changelog in each of
// its binary packages' folders, and the one the question names may rank
// below a page of its copies.
const changelogSearchDepth = 2
