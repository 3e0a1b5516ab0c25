package fstools

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/graphrag/graphrag"
)

// countNamed is how many files a count names (newest first): enough to show
// what was counted, few enough to read; the answer's sources are these.
const countNamed = 5

// countResult is a count with the newest files and, when the tools know
// the store, how many of the counted files it indexes.
type countResult struct {
	Walk
	Files   []File // the newest countNamed files
	Total   int
	Bytes   int64
	Indexed int  // counted files the store holds
	Known   bool // Indexed is known (Options.Index is set)
}

// countNewest counts the files m passes in one walk, keeping the newest
// and, with an Index, counting those the store holds.
func (t *Tools) countNewest(ctx context.Context, m *matcher) (countResult, error) {
	var res countResult
	var set map[string]bool
	if t.opts.Index != nil {
		var err error
		if set, err = t.indexed(ctx); err != nil {
			return res, err
		}
		res.Known = true
	}
	newest := newTopK(countNamed, func(a, b File) bool {
		if !a.ModTime.Equal(b.ModTime) {
			return a.ModTime.After(b.ModTime)
		}
		return a.Path < b.Path
	})
	var err error
	res.Walk, err = t.walk(ctx, m, nil, visitor{file: func(f File) {
		res.Total++
		res.Bytes += f.Size
		newest.add(f)
		if set != nil && t.isIndexed(set, f.Path) {
			res.Indexed++
		}
	}})
	res.Files = newest.sorted()
	return res, err
}

// indexedNote says how many of the counted files are not indexed, and why
// when the store recorded what ingest skipped: "(10702 indexed; 762 not
// indexed: …)". "" when all are, or when the store is not known. The
// store records what ingest skipped per folder, not per type or date, so a
// count with a scope (filters) gives no reasons.
func (t *Tools) indexedNote(ctx context.Context, res countResult, scope string) string {
	if !res.Known || res.Indexed >= res.Total {
		return ""
	}
	missing := res.Total - res.Indexed
	s := fmt.Sprintf("Of these, %d %s indexed and %d %s not", res.Indexed, isAre(res.Indexed), missing, isAre(missing))
	why, skipped := "", 0
	if scope == "" {
		why, skipped = t.skippedNote(ctx)
	}
	switch {
	case why != "" && skipped == missing:
		s += fmt.Sprintf(": the last ingest skipped %s (%s)", themIt(missing), why)
	case why != "":
		s += fmt.Sprintf(": ingest skipped %s or %s newer than the last ingest (the last ingest skipped %s)", themIt(missing), theyIt(missing), why)
	default:
		s += fmt.Sprintf(": ingest skipped %s or %s newer than the last ingest", themIt(missing), theyIt(missing))
	}
	return s + "."
}

func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}

func themIt(n int) string {
	if n == 1 {
		return "it"
	}
	return "them"
}

func theyIt(n int) string {
	if n == 1 {
		return "it is"
	}
	return "they are"
}

// runMentions answers "how many files mention X" from the store's index.
func (t *Tools) runMentions(ctx context.Context, in Intent, scope string) (string, []graphrag.Hit, error) {
	if t.opts.Index == nil {
		return fmt.Sprintf("Counting the files that mention %q needs the store's index, which the filesystem tools were not given: ask \"what do my files say about %s\" to search them instead.", in.Term, in.Term), nil, nil
	}
	n, docs, atLeast, err := t.mentions(ctx, in.Term, in.Filter)
	if err != nil {
		return "", nil, err
	}
	count := plural(n, "document", "documents")
	if atLeast {
		count = "at least " + count
	}
	verb := "mention"
	if n == 1 && !atLeast {
		verb = "mentions"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s%s %s %q (a count of the indexed documents whose text holds it).", capitalize(count), scopeSuffix(scope), verb, in.Term)
	shown := docs[:min(len(docs), max(in.Limit, 1))]
	if len(shown) > 0 {
		names := make([]string, len(shown))
		for i, h := range shown {
			names[i] = t.docName(h)
		}
		if n > len(shown) {
			fmt.Fprintf(&b, " Best matches: %s, …", strings.Join(names, ", "))
		} else {
			fmt.Fprintf(&b, " They are: %s.", strings.Join(names, ", "))
		}
	}
	hits := make([]graphrag.Hit, len(shown))
	for i, h := range shown {
		h.Chunk.ID = h.Source.DocID + "#fs"
		h.Chunk.Text = fmt.Sprintf("%s mentions %q: %s", t.docName(h), in.Term, snippet(h.Chunk.Text, in.Term))
		hits[i] = h
	}
	return b.String(), hits, nil
}

// displayPath shows p relative to its root, led by the root's name when
// there are several ("homelab/network.txt"); a path under no root as it is.
func (t *Tools) displayPath(p string) string {
	r, ok := t.rootOf(p)
	if !ok {
		return p
	}
	base := r.path
	if !within(r.path, p) {
		base = r.resolved // the store keeps paths with links resolved
	}
	rel, err := filepath.Rel(base, p)
	if err != nil {
		return p
	}
	rel = filepath.ToSlash(rel)
	if len(t.roots) > 1 {
		rel = filepath.Base(r.path) + "/" + rel
	}
	return rel
}

// docName names a document found by search: its path, or for a row of a
// JSONL corpus (whose path is the corpus file's) its title.
func (t *Tools) docName(h graphrag.Hit) string {
	if h.Source.DocID != h.Source.Path && h.Source.Title != "" {
		return DisplayName(h.Source.Title)
	}
	return DisplayName(t.displayPath(h.Source.Path))
}

// snippetRadius is how many bytes of context a mention's snippet keeps on
// each side of the term: about a line of text.
const snippetRadius = 60

// snippet is the text around the first occurrence of term's first word.
func snippet(text, term string) string {
	words := strings.Fields(strings.ToLower(term))
	i := -1
	if len(words) > 0 {
		i = strings.Index(strings.ToLower(text), words[0])
	}
	if i < 0 {
		i = 0
	}
	from, to := max(0, i-snippetRadius), min(len(text), i+snippetRadius)
	s := strings.ToValidUTF8(text[from:to], "")
	s = strings.Join(strings.Fields(s), " ")
	if from > 0 {
		s = "…" + s
	}
	if to < len(text) {
		s += "…"
	}
	return s
}

// runStore answers questions about the store itself from its record.
func (t *Tools) runStore(ctx context.Context, loc *time.Location) (string, []graphrag.Hit, error) {
	sr, ok := t.opts.Index.(StoreReporter)
	if !ok {
		return "The filesystem tools were not given the store's record, so they cannot say what was ingested or when: run `graphrag sources` to see it.", nil, nil
	}
	rep, err := sr.StoreReport(ctx)
	if err != nil {
		return "", nil, fmt.Errorf("read the store's record: %w", err)
	}
	return FormatStoreReport(rep, loc), rootHits(rep, loc), nil
}

// FormatStoreReport says what the store holds, from where, and when each
// folder was last ingested.
func FormatStoreReport(rep StoreReport, loc *time.Location) string {
	var b strings.Builder
	fmt.Fprintf(&b, "The store holds %s in %s", plural(rep.Documents, "document", "documents"), plural(rep.Chunks, "chunk", "chunks"))
	if rep.Bytes > 0 {
		fmt.Fprintf(&b, " (%s on disk)", HumanSize(rep.Bytes))
	}
	if rep.Embedder != "" {
		fmt.Fprintf(&b, ", embedded with %s", rep.Embedder)
	} else {
		b.WriteString(", keyword search only (no embeddings)")
	}
	if len(rep.Roots) == 0 {
		b.WriteString(". No ingested folders are recorded: `graphrag ingest PATH...` records them.")
		return b.String()
	}
	var last time.Time
	lastRoot := ""
	for _, r := range rep.Roots {
		if r.LastIngest.After(last) {
			last, lastRoot = r.LastIngest, r.Path
		}
	}
	if !last.IsZero() {
		fmt.Fprintf(&b, ". The last ingest finished %s (%s)", formatTime(last, loc), DisplayName(lastRoot))
	}
	fmt.Fprintf(&b, ". Ingested %s:", plural(len(rep.Roots), "folder", "folders"))
	for _, r := range rep.Roots {
		b.WriteString("\n- " + describeRoot(r, loc))
	}
	return b.String()
}

func describeRoot(r RootReport, loc *time.Location) string {
	s := fmt.Sprintf("%s — %s, %s, last ingested %s", DisplayName(r.Path), plural(r.Files, "file", "files"), plural(r.Chunks, "chunk", "chunks"), formatTime(r.LastIngest, loc))
	if r.LastIngest.IsZero() {
		s = fmt.Sprintf("%s — %s, %s, no ingest of it finished yet", DisplayName(r.Path), plural(r.Files, "file", "files"), plural(r.Chunks, "chunk", "chunks"))
	}
	if why := reasonList(r.Skipped); why != "" {
		s += "; skipped " + why
	}
	if r.Missing {
		s += " (the folder no longer exists)"
	}
	return s
}

// rootHits are the ingested folders as hits, the sources of a store answer.
func rootHits(rep StoreReport, loc *time.Location) []graphrag.Hit {
	hits := make([]graphrag.Hit, len(rep.Roots))
	for i, r := range rep.Roots {
		hits[i] = graphrag.Hit{
			Chunk:  graphrag.Chunk{ID: r.Path + "#fs", DocID: r.Path, Text: "ingested folder " + describeRoot(r, loc)},
			Source: graphrag.Source{DocID: r.Path, Path: r.Path, Title: r.Path, Type: "dir", ModTime: r.LastIngest},
		}
	}
	return hits
}
