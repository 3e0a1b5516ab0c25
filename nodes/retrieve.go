package nodes

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/graph"
)

// Messages for routes whose capability is not configured.
const (
	msgNoFileTools  = "The filesystem tools are not configured, so questions about the files themselves (counts, listings, sizes, dates) cannot be answered yet. Ask about the contents of your files instead."
	msgNoLocalNoWeb = NoAnswer + " Web search is off: enable it with --web searxng=URL (a SearxNG instance you run) to look this up on the web."
	msgNoWeb        = "Web search is off, and this question needs fresh information from the web. Enable it with --web searxng=URL (a SearxNG instance you run), or ask about your own files."
)

// FileSelector is what Deps.Tools may also do: select the files a plan's
// filters (FileTypes, Time, SourceHint) mean, as absolute paths, which are
// file documents' IDs. A nil list means "don't narrow"; an error wrapping
// graphrag.ErrNotFound means no file matches. retrieve finds it by type
// assertion and narrows local searches to those documents.
type FileSelector interface {
	Select(ctx context.Context, plan graphrag.Plan) ([]string, error)
}

// StoreQuestions is what Deps.Tools may also do: recognise a question about
// the store itself ("when did I last ingest", "how big is my index", "which
// folders have I ingested"), which the tools answer from the store's record.
// route sends such a question to the filesystem route whatever the
// classifier says: the tools own the wording, so the router grows no
// pattern for it. route finds it by type assertion.
type StoreQuestions interface {
	AboutStore(query string) bool
}

// LegSearcher is what Deps.Searcher may also do: run the keyword and the
// vector list of a hybrid search one at a time. retrieve then runs the two
// as parallel branches and fuses them with graphrag.FuseRRF, which gives
// the store's own hybrid result (retrievers/storetest checks it) in the
// time of the slower list instead of both. It finds it by type assertion;
// a store without it (PostgreSQL, whose hybrid search is one SQL
// statement) is searched in one call.
type LegSearcher interface {
	// HybridLegs reports whether a hybrid search fuses a keyword and a
	// vector list (false: it would run as keyword search alone, e.g.
	// without an embedder).
	HybridLegs() bool
	// SearchLeg runs one list, q.Mode keyword or vector, as deep as the
	// store's hybrid search reads it, each hit ranked in that list alone.
	SearchLeg(ctx context.Context, q graphrag.Query) (graphrag.SearchResult, error)
}

// reasonAboutStore is the plan's reason for a question about the store.
const reasonAboutStore = "a question about the store itself: answered from its record by the filesystem tools"

// Node names of the retrieve subgraph: select picks what to search and
// fans out to the branches, which run concurrently and join at fuse.
const (
	RetrieveSelect  = "select"  // filters, file selection, and which branches run
	RetrieveKeyword = "keyword" // the keyword (BM25) list of a hybrid search
	RetrieveVector  = "vector"  // the vector list of a hybrid search
	RetrieveSearch  = "search"  // a whole search in one call (vector route, or a store without legs)
	RetrieveWeb     = "web"     // the web search; asks first with Options.ConfirmWeb
	RetrieveFiles   = "files"   // the filesystem tools
	RetrieveFuse    = "fuse"    // joins the branches: RRF over the legs
)

// retrieval is the state of the retrieve subgraph: the plan in, the hits
// out. Its fields are exported because parallel branches merge field by
// field.
type retrieval struct {
	// Plan is route's plan. The web branch changes its route to a local
	// one when the user declines to send the question out.
	Plan graphrag.Plan
	// WebDeclined is State.WebDeclined.
	WebDeclined bool
	// Mode is the local search mode the plan asks for; Filters what it
	// searches within: the plan's filters, narrowed to the files the
	// tools select. Skip is set when nothing can match (no file passes
	// the filters): no branch runs.
	Mode    graphrag.SearchMode
	Filters graphrag.Filters
	Skip    bool
	// Queries are the texts a local search runs, each as its own
	// branch(es): Plan.Query first, then the planner's other wordings
	// (Plan.SearchQueries, at most Options.MaxQueries). Text is the one a
	// search branch runs, set on its Send.
	Queries []string
	Text    string
	// Legs are the ranked lists the search branches found, in branch
	// order (a reducer appends them); fuse turns them into Hits.
	Legs []leg
	// Hits, ToolText, SearchMode and SearchNote are the result, as State
	// holds them. Fused is set when Hits fuse the lists of several
	// queries: their scores are RRF sums whatever SearchMode says.
	Hits       []graphrag.Hit
	ToolText   string
	SearchMode graphrag.SearchMode
	SearchNote string
	Fused      bool
	// Notes are added to State.Notes (a reducer appends them).
	Notes []string
}

// leg is one ranked list: a leg of a hybrid search (Part set, Mode
// keyword or vector) or a whole search (Mode as asked), for the query
// text Query.
type leg struct {
	Query  string
	Mode   graphrag.SearchMode
	Part   bool
	Result graphrag.SearchResult
}

// mode is the mode the store reported for the list, or the one asked.
func (l leg) mode() graphrag.SearchMode {
	if l.Result.Mode != "" {
		return l.Result.Mode
	}
	return l.Mode
}

func (r *retrieval) note(format string, args ...any) {
	r.Notes = append(r.Notes, fmt.Sprintf(format, args...))
}

// fallback records a note and emits it as a fallback event, as
// State.fallback does.
func (r *retrieval) fallback(ctx context.Context, format string, args ...any) {
	r.note(format, args...)
	graph.Emit(ctx, EventFallback, r.Notes[len(r.Notes)-1])
}

// retrieveGraph builds the retrieve subgraph:
//
//	select ⇒ keyword | vector | search | web | files → fuse
//
// select sends the plan to the branches it needs (none for a direct
// answer); they run concurrently and fuse joins them. A local search
// runs its branches once per query text (multi-query retrieval: the
// question and a planner's other wordings of it); the web and the file
// tools get the question alone.
func (p *pipeline) retrieveGraph() (*graph.Runnable[retrieval], error) {
	g := graph.NewStateGraph[retrieval]()
	g.AddNode(RetrieveSelect, p.selectSearch)
	g.AddNode(RetrieveKeyword, p.searchLeg(graphrag.ModeKeyword))
	g.AddNode(RetrieveVector, p.searchLeg(graphrag.ModeVector))
	g.AddNode(RetrieveSearch, p.searchWhole)
	g.AddNode(RetrieveWeb, p.searchWeb)
	g.AddNode(RetrieveFiles, p.askFileTools)
	g.AddNode(RetrieveFuse, p.fuse)
	g.SetEntryPoint(RetrieveSelect)
	branches := []string{RetrieveKeyword, RetrieveVector, RetrieveSearch, RetrieveWeb, RetrieveFiles}
	g.AddSendEdges(RetrieveSelect, p.branches, branches...)
	for _, b := range branches {
		g.AddEdge(b, RetrieveFuse)
	}
	g.AddEdge(RetrieveFuse, graph.END)
	g.SetEdgeLabel(RetrieveSelect, RetrieveKeyword, "hybrid: keyword leg per query")
	g.SetEdgeLabel(RetrieveSelect, RetrieveVector, "hybrid: vector leg per query")
	g.SetEdgeLabel(RetrieveSelect, RetrieveSearch, "vector · hybrid in one call, per query")
	web := "web"
	if p.opts.ConfirmWeb {
		web = "web · asks first"
	}
	g.SetEdgeLabel(RetrieveSelect, RetrieveWeb, web)
	g.SetEdgeLabel(RetrieveSelect, RetrieveFiles, "filesystem")
	g.SetEdgeLabel(RetrieveKeyword, RetrieveFuse, "RRF")
	g.SetEdgeLabel(RetrieveVector, RetrieveFuse, "RRF")
	graph.AddReducer(g, "Legs", func(acc, v []leg) []leg { return append(acc, v...) })
	graph.AddReducer(g, "Notes", func(acc, v []string) []string { return append(acc, v...) })
	return g.Compile()
}

// retrieve runs the retrieve subgraph on s, as the graph's retrieve node
// does; tests call it directly.
func (p *pipeline) retrieve(ctx context.Context, s State) (State, error) {
	r, err := p.retriever.Invoke(ctx, retrievalOf(s))
	if err != nil {
		return s, err
	}
	return withRetrieval(s, r), nil
}

// retrievalOf is the retrieve subgraph's input.
func retrievalOf(s State) retrieval {
	return retrieval{Plan: s.Plan, WebDeclined: s.WebDeclined}
}

// withRetrieval folds the retrieve subgraph's result into s.
func withRetrieval(s State, r retrieval) State {
	s.Plan, s.WebDeclined = r.Plan, r.WebDeclined
	s.Hits, s.ToolText, s.SearchMode, s.SearchNote, s.fused = r.Hits, r.ToolText, r.SearchMode, r.SearchNote, r.Fused
	s.Notes = append(s.Notes, r.Notes...)
	return s
}

// selectSearch is the "select" node: the filters of a local search,
// narrowed to the files the tools select.
func (p *pipeline) selectSearch(ctx context.Context, r retrieval) (retrieval, error) {
	plan := r.Plan
	if !isLocal(plan.Route) {
		return r, nil
	}
	if p.deps.Searcher == nil {
		return r, fmt.Errorf("retrieve %q: no Searcher in Deps: %w", plan.Query, graphrag.ErrNotConfigured)
	}
	r.Mode = graphrag.ModeVector
	if plan.Route == graphrag.RouteHybrid {
		r.Mode = graphrag.ModeHybrid
	}
	r.Filters = p.filters(plan)
	r.Queries = plan.SearchQueries(p.maxQueries())
	if sel, ok := p.deps.Tools.(FileSelector); ok && (len(plan.FileTypes) > 0 || plan.Time != graphrag.TimeAny || plan.SourceHint != "") {
		// Hybrid with tools: the file tools pick the files the filters
		// mean, and the search runs over those documents only.
		ids, err := sel.Select(ctx, plan)
		switch {
		case errors.Is(err, graphrag.ErrNotFound) && plan.Time == graphrag.TimeAny:
			// A file type or source named by the wording is a guess (see
			// fuse): search all files, and say so.
			r.Filters.Types, r.Filters.Source = nil, ""
			r.fallback(ctx, "retrieve: no file matches the question's filters (%v): searched all files", err)
		case errors.Is(err, graphrag.ErrNotFound):
			r.fallback(ctx, "retrieve: no file matches the question's filters (%v)", err)
			r.Skip = true
		case err != nil:
			if ctx.Err() != nil {
				return r, ctx.Err()
			}
			r.fallback(ctx, "retrieve: file selection failed, searched with the store's filters: %v", err)
		case ids != nil:
			r.Filters.DocIDs = ids
		}
	}
	return r, nil
}

// branches says which branches run: for each query text, the two legs of
// a hybrid search when the store runs them apart, one whole search
// otherwise; or the web or the file tools; none for a direct answer.
// Their order, the question's first, is the order fuse reads their lists
// in, whichever finishes first.
func (p *pipeline) branches(_ context.Context, r retrieval) ([]graph.Send[retrieval], error) {
	to := func(names ...string) []graph.Send[retrieval] {
		out := make([]graph.Send[retrieval], len(names))
		for i, n := range names {
			out[i] = graph.Send[retrieval]{To: n, State: r}
		}
		return out
	}
	switch {
	case r.Skip:
		return nil, nil
	case r.Plan.Route == graphrag.RouteFilesystem:
		return to(RetrieveFiles), nil
	case r.Plan.Route == graphrag.RouteWeb:
		return to(RetrieveWeb), nil
	case !isLocal(r.Plan.Route):
		return nil, nil
	}
	names := []string{RetrieveSearch}
	if ls, ok := p.deps.Searcher.(LegSearcher); ok && r.Mode == graphrag.ModeHybrid && ls.HybridLegs() {
		names = []string{RetrieveKeyword, RetrieveVector}
	}
	out := make([]graph.Send[retrieval], 0, len(r.Queries)*len(names))
	for _, q := range r.Queries {
		b := r
		b.Text = q
		for _, n := range names {
			out = append(out, graph.Send[retrieval]{To: n, State: b})
		}
	}
	return out, nil
}

// maxQueries is Options.MaxQueries, or its default.
func (p *pipeline) maxQueries() int {
	if p.opts.MaxQueries > 0 {
		return p.opts.MaxQueries
	}
	return maxQueries
}

// searchLeg returns the node running one leg of a hybrid search.
func (p *pipeline) searchLeg(mode graphrag.SearchMode) graph.NodeFunc[retrieval] {
	return func(ctx context.Context, r retrieval) (retrieval, error) {
		q := graphrag.Query{Text: r.Text, Mode: mode, K: p.opts.K, Filters: r.Filters}
		res, err := p.deps.Searcher.(LegSearcher).SearchLeg(ctx, q)
		if err != nil {
			return r, fmt.Errorf("%s leg of the hybrid search %q: %w", mode, r.Text, err)
		}
		r.Legs = []leg{{Query: r.Text, Mode: mode, Part: true, Result: res}}
		return r, nil
	}
}

// searchWhole is the "search" node: one call to the store for r.Text.
func (p *pipeline) searchWhole(ctx context.Context, r retrieval) (retrieval, error) {
	res, err := p.deps.Searcher.Search(ctx, graphrag.Query{Text: r.Text, Mode: r.Mode, K: p.opts.K, Filters: r.Filters})
	if err != nil {
		return r, fmt.Errorf("%s search %q: %w", r.Mode, r.Text, err)
	}
	r.Legs = []leg{{Query: r.Text, Mode: r.Mode, Result: res}}
	return r, nil
}

// askFileTools is the "files" node: the filesystem tools answer.
func (p *pipeline) askFileTools(ctx context.Context, r retrieval) (retrieval, error) {
	if p.deps.Tools == nil {
		r.ToolText = msgNoFileTools
		r.note("retrieve: filesystem tools are not configured")
		return r, nil
	}
	text, hits, err := p.deps.Tools.Answer(ctx, r.Plan)
	if err != nil {
		if errors.Is(err, graphrag.ErrNotConfigured) {
			r.ToolText = msgNoFileTools
			r.note("retrieve: filesystem tools: %v", err)
			return r, nil
		}
		return r, fmt.Errorf("filesystem tools for %q: %w", r.Plan.Query, err)
	}
	r.ToolText, r.Hits = text, hits
	return r, nil
}

// fuse is the join: the lists of the search branches fused by reciprocal
// rank fusion in branch order (the question's lists first, so that ties
// keep its order), one whole search taken as it is. A search narrowed to
// the files the wording hints at that found nothing searches all files
// again, with the question alone.
func (p *pipeline) fuse(ctx context.Context, r retrieval) (retrieval, error) {
	if len(r.Legs) == 0 {
		return r, nil
	}
	var res graphrag.SearchResult
	var queries SearchedQueries
	for _, l := range r.Legs {
		if !slices.Contains(queries, l.Query) {
			queries = append(queries, l.Query)
		}
	}
	if len(r.Legs) == 1 {
		res = r.Legs[0].Result
		res.Mode = r.Legs[0].mode()
	} else {
		lists := make([][]graphrag.Hit, len(r.Legs))
		for i, l := range r.Legs {
			lists[i] = l.Result.Hits
		}
		res = graphrag.SearchResult{Hits: graphrag.FuseRRF(p.opts.K, lists...), Mode: graphrag.ModeHybrid}
		if first := r.Legs[0]; !first.Part {
			// Whole searches of several queries: the store's own mode and
			// note (a hybrid search without an embedder runs as keyword).
			res.Mode, res.Note = first.mode(), first.Result.Note
		}
	}
	r.Legs = nil
	r.Fused = len(queries) > 1
	if r.Fused {
		graph.Emit(ctx, EventQueries, queries)
	}
	if len(res.Hits) == 0 && (r.Filters.Source != "" || len(r.Filters.Types) > 0) {
		// The source hint is a guess from the wording, and so is a file
		// type named as the subject of the question ("my COPY of a huge
		// CSV failed" asks about loading CSV data, not for CSV files):
		// when nothing matches, all files are searched, and the note says
		// so. A time window the user said is kept.
		f := r.Filters
		f.Source, f.Types, f.DocIDs = "", nil, nil
		var err error
		if res, err = p.deps.Searcher.Search(ctx, graphrag.Query{Text: r.Plan.Query, Mode: r.Mode, K: p.opts.K, Filters: f}); err != nil {
			return r, fmt.Errorf("%s search %q: %w", r.Mode, r.Plan.Query, err)
		}
		if res.Mode == "" {
			res.Mode = r.Mode
		}
		what := fmt.Sprintf("in %q", r.Plan.SourceHint)
		if r.Filters.Source == "" {
			what = "among your " + strings.Join(r.Filters.Types, ", ") + " files"
		}
		r.fallback(ctx, "retrieve: nothing matched %s: searched all files", what)
		r.Fused = false
	}
	res.Hits = p.withNamedFolders(ctx, &r, res.Hits)
	res.Hits = p.withCopyrightFile(ctx, &r, res.Hits)
	res.Hits = p.withQuotedPhrases(ctx, &r, res.Hits)
	res.Hits = p.withNewestRelease(ctx, &r, res.Hits)
	res.Hits = p.withNamedCopies(ctx, &r, res.Hits)
	res.Hits = withCopies(res.Hits)
	r.Hits, r.SearchMode, r.SearchNote = res.Hits, res.Mode, res.Note
	return r, nil
}

// docKinds are the documents a package's folder holds, named after the
// package with a possessive: "zorp's copyright file", "frobd's changelog".
var docKinds = toSet(`copyright changelog readme news manual license licence`)

// docKind is the kind of document a file name is of: its part before the
// first dot ("readme" of "README.Debian", "changelog" of
// "changelog.Debian.gz"), as docKinds lists them.
func docKind(name string) string {
	kind, _, _ := strings.Cut(name, ".")
	return kind
}

// packageWritten reports whether the question writes w as a package's
// own name: before "package" ("Debian's zorpd package"), with a
// possessive before a kind of document ("zorpd's changelog"; see
// packageNames), or after one ("the changelog of zorpd"). Before another
// kind of software it may be a word that describes one ("the standard
// library", "the netlink library"), which many files write.
func packageWritten(question, w string) bool {
	toks := tokenize(question)
	for i, t := range toks {
		if t.Lower == w && namedOf(toks, i) {
			return true
		}
		if i+1 >= len(toks) {
			break
		}
		if t.Lower == w && packageOrDocument(toks[i+1].Lower) {
			return true
		}
	}
	return false
}

// packageNames are the words a question writes as the name of a package
// or a program: before a kind of software ("the zorp package", see
// namedKinds), with a possessive before a kind of document ("zorp's
// changelog"), or after one ("the changelog of zorp", "the copyright
// holder for zorp"; see namedAfter).
func packageNames(query string) []string {
	toks := tokenize(query)
	var out []string
	for i, t := range toks {
		if stopWords[t.Lower] || slices.Contains(out, t.Lower) {
			continue
		}
		if namedOf(toks, i) || namedAfter(toks, i, "for") && !t.Digit {
			out = append(out, t.Lower) // "the changelog of zorpd", "the copyright holder for zorpd"
			continue
		}
		if i+1 >= len(toks) {
			continue
		}
		next := toks[i+1].Lower
		// A token's span may or may not take its possessive along.
		written, after := query[t.Start:t.End], query[t.End:]
		possessive := strings.HasSuffix(written, "'s") || strings.HasSuffix(written, "’s") ||
			strings.HasPrefix(after, "'s") || strings.HasPrefix(after, "’s")
		if namedKinds[next] || possessive && docKinds[docKind(next)] {
			out = append(out, t.Lower)
		}
	}
	return out
}

// namedFolderHits is how many passages of a named package's folder join
// the hits: its copyright file and one more (a README, a changelog).
const namedFolderHits = 2

// withNamedFolders adds to hits the best passages of a folder a package
// name of the question names ("the zorp package": …/zorp/), when no hit
// is in it: the folder's files may never write the name they are filed
// under (a copyright file names people and licences). They take the
// places of the last hits.
func (p *pipeline) withNamedFolders(ctx context.Context, r *retrieval, hits []graphrag.Hit) []graphrag.Hit {
	for _, name := range packageNames(r.Plan.Query) {
		if slices.ContainsFunc(hits, func(h graphrag.Hit) bool { return underPath(h.Source.Path, name) }) {
			continue
		}
		// The store filters by a part of the path; the folder's own
		// files are those under a folder of that name (underPath).
		f := r.Filters
		f.Source = name
		hits = p.withSearched(ctx, r, hits, graphrag.Query{Text: r.Plan.Query, Mode: r.Mode, K: 2 * namedFolderHits, Filters: f},
			namedFolderHits, func(h graphrag.Hit) bool { return underPath(h.Source.Path, name) }, "the "+name+" folder")
	}
	return hits
}

// copyrightTopic finds the words of a question about what a package's
// copyright file records besides who made the work (asksAuthor): its
// licence ("zorp license", "is any part of zorp public domain") or
// copyright.
var copyrightTopic = regexp.MustCompile(`(?i)\b(licen[cs]e[sd]?|licensing|copyright|public domain)\b`)

// packagerAsked finds a question about who made a package's Debian
// packaging, or when ("who debianized zorp", "when was zorp first
// packaged for Debian"): Debian's policy has the copyright file record
// it, in its header ("This package was debianized by … on <date>") or its
// debian/* stanza.
var packagerAsked = regexp.MustCompile(`(?i)\b(who(m)?|when|what date|which date)\b[^?]*\b(debiani[sz]ed|packaged|packaging)\b`)

// withCopyrightFile adds to hits the best passages of a package's
// copyright file, when the question asks about a licence, a copyright,
// who made a work or who packaged it for Debian (packagerAsked), the
// folder of a hit is the package's (the question
// names the folder, or the software as Debian packages it: packagedAs),
// and no hit is of that folder's copyright file. A package's changelog
// writes its name in every entry and outranks the copyright file that
// answers, which may never write it ("zorp license": libzorp2's
// changelog found, not libzorp2/copyright). The first such folder is
// searched; its passages take the places of the last hits. When a hit is
// of the folder's copyright file, the best such hit comes first instead:
// it is the record the question asks about, and evidence weighs the first
// hits (asked for zorp's authors, the one line of zorp/copyright that
// lists them may rank below other packages' changelogs that name zorp).
// The passages searched for stay last: put first, they cost more answers
// on the real-documents benchmark than they gained. A question on who
// packaged the package, or when, is the exception: the copyright file is
// the only record of it, and left last it was found and then not kept.
func (p *pipeline) withCopyrightFile(ctx context.Context, r *retrieval, hits []graphrag.Hit) []graphrag.Hit {
	q := r.Plan.Query
	packager := packagerAsked.MatchString(q)
	if !copyrightTopic.MatchString(q) && !asksAuthor(q) && !packager {
		return hits
	}
	terms := contentTerms(q)
	for _, h := range hits {
		folder, _ := fileIn(h.Source.Path)
		if !folderNamed(folder, terms) {
			continue
		}
		copyright := func(x graphrag.Hit) bool {
			f, name := fileIn(x.Source.Path)
			return f == folder && name == "copyright"
		}
		if i := slices.IndexFunc(hits, copyright); i >= 0 {
			return toFront(hits, i)
		}
		f := r.Filters
		f.Source = folder + "/copyright"
		hits = p.withSearched(ctx, r, hits, graphrag.Query{Text: q, Mode: r.Mode, K: 2 * namedFolderHits, Filters: f},
			namedFolderHits, copyright, "the copyright file of "+folder)
		if i := slices.IndexFunc(hits, copyright); packager && i >= 0 {
			return toFront(hits, i)
		}
		return hits
	}
	return hits
}

// folderNamed reports whether a question's terms name a package's folder:
// one is its name, or the software it holds as Debian packages it
// (packagedAs: "libzorp2" for "zorp"). The folder is "" for a file at the
// top, which no term names.
func folderNamed(folder string, terms []term) bool {
	return folder != "" && slices.ContainsFunc(terms, func(t term) bool { return t.Word == folder || packagedAs(folder, t.Word) })
}

// toFront is hits with hits[i] first and the others in their order.
func toFront(hits []graphrag.Hit, i int) []graphrag.Hit {
	if i == 0 {
		return hits
	}
	out := make([]graphrag.Hit, 0, len(hits))
	out = append(out, hits[i])
	out = append(out, hits[:i]...)
	return append(out, hits[i+1:]...)
}

// fileIn is the folder a file is in and the file's name, lower-cased:
// "zorp" and "copyright" of /usr/share/doc/zorp/copyright. The folder is
// "" for a file at the top.
func fileIn(p string) (folder, name string) {
	parts := pathParts(p)
	if len(parts) < 2 {
		return "", parts[len(parts)-1]
	}
	return parts[len(parts)-2], parts[len(parts)-1]
}

// withSearched runs q and puts up to n of its hits that belong (the rest
// are what else the search matched) in the places of the last hits. When
// the search fails, the question's own hits stand, and the trace says what
// was not searched.
func (p *pipeline) withSearched(ctx context.Context, r *retrieval, hits []graphrag.Hit, q graphrag.Query, n int, belongs func(graphrag.Hit) bool, what string) []graphrag.Hit {
	res, err := p.deps.Searcher.Search(ctx, q)
	if err != nil {
		r.note("retrieve: searching %s failed: %v", what, err)
		return hits
	}
	own := slices.DeleteFunc(res.Hits, func(h graphrag.Hit) bool { return !belongs(h) })
	own = own[:min(len(own), n)]
	if len(own) == 0 {
		return hits
	}
	keep := max(0, min(len(hits), p.opts.K-len(own)))
	return append(hits[:keep:keep], own...)
}

// minQuotedWords is the fewest words of a quoted phrase searched as
// itself: an error message or a line of code ("quill is sealed and
// cannot bend"). One or two quoted words are a name, which the search
// already weighs.
const minQuotedWords = 3

// quotedPhraseHits is how many passages holding a quoted phrase join the
// hits: as many as a named package's folder adds (namedFolderHits), the
// definition of a message and one place that returns it.
const quotedPhraseHits = 2

// quotedPhrasePattern finds a phrase between a pair of straight, curly or
// back quotes.
var quotedPhrasePattern = regexp.MustCompile("\"([^\"]+)\"|“([^”]+)”|`([^`]+)`")

// quotedPhrases are the phrases of at least minQuotedWords words that a
// question quotes, lower-cased with their spaces collapsed: what the asker
// pasted (an error message, a line of code) and the files write verbatim.
func quotedPhrases(question string) []string {
	var out []string
	for _, m := range quotedPhrasePattern.FindAllStringSubmatch(question, -1) {
		ph := strings.Join(m[1:], "")
		if f := strings.Fields(strings.ToLower(ph)); len(f) >= minQuotedWords && !slices.Contains(out, strings.Join(f, " ")) {
			out = append(out, strings.Join(f, " "))
		}
	}
	return out
}

// holdsPhrase reports whether a hit's text writes phrase (lower-cased,
// spaces collapsed) verbatim.
func holdsPhrase(h graphrag.Hit, phrase string) bool {
	return strings.Contains(strings.Join(strings.Fields(strings.ToLower(h.Chunk.Text)), " "), phrase)
}

// withQuotedPhrases adds to hits the best passages that write a phrase
// the question quotes, when no hit does: a pasted error message is found
// where it is defined, though the question's other words ("when I fold
// the quill") rank the code that returns it higher. They take the places
// of the last hits.
func (p *pipeline) withQuotedPhrases(ctx context.Context, r *retrieval, hits []graphrag.Hit) []graphrag.Hit {
	for _, ph := range quotedPhrases(r.Plan.Query) {
		if slices.ContainsFunc(hits, func(h graphrag.Hit) bool { return holdsPhrase(h, ph) }) {
			continue
		}
		hits = p.withSearched(ctx, r, hits, graphrag.Query{Text: ph, Mode: r.Mode, K: p.opts.K, Filters: r.Filters},
			quotedPhraseHits, func(h graphrag.Hit) bool { return holdsPhrase(h, ph) }, fmt.Sprintf("for %q", ph))
	}
	return hits
}

// EventQueries names the custom graph event fuse emits when a local search
// ran more than one query text (a planner's other wordings of the
// question, Plan.Queries); its payload, a SearchedQueries, lists them.
const EventQueries = "queries"

// SearchedQueries are the query texts one retrieve searched and fused, the
// question's first. It prints as the texts quoted, one "·" apart.
type SearchedQueries []string

func (q SearchedQueries) String() string {
	quoted := make([]string, len(q))
	for i, s := range q {
		quoted[i] = fmt.Sprintf("%q", s)
	}
	return strings.Join(quoted, " · ")
}

// namedOf reports whether toks[i] is the name "of" follows, after a
// package or a kind of document: "the changelog of zorpd", "the
// README.Debian of zorpd", "the copyright file of zorpd".
func namedOf(toks []token, i int) bool {
	return namedAfter(toks, i, "of")
}

// namedAfter reports whether toks[i] is the name the preposition prep
// follows, after a package or a kind of document within two words
// ("the copyright holder for zorpd" with "for"). Only "of" says whose the
// document is firmly enough to ask whether the files hold the package
// (packageWritten); "for" also ends in a purpose ("the README for
// beginners"), so a folder it names is only searched (packageNames).
func namedAfter(toks []token, i int, prep string) bool {
	if i < 2 || toks[i-1].Lower != prep {
		return false
	}
	for j := i - 2; j >= max(0, i-3); j-- {
		if packageOrDocument(toks[j].Lower) {
			return true
		}
	}
	return false
}

// packageOrDocument reports whether a lower-case word is "package" or a
// kind of document a package has (docKinds): the words a package's own
// name stands beside.
func packageOrDocument(w string) bool {
	return w == "package" || w == "packages" || docKinds[docKind(w)]
}

// withCopies sets each hit's Copies to the documents of the other hits
// whose text is the same word for word, best ranked first: Debian ships a
// source package's changelog in every binary package's folder, and two
// manual pages may share a paragraph. Which copy ranks first is chance;
// the citation names them all, and each copy keeps its place among the
// hits (a copy that dropped out would leave a weaker passage in its
// place: tried, more unanswerable questions were answered).
func withCopies(hits []graphrag.Hit) []graphrag.Hit {
	// The hits may be the searcher's own slice: they are copied at the
	// first copy found, and left as they are when there is none.
	var out []graphrag.Hit
	// Every pair is compared: the hits are one page of results, and two
	// texts of different lengths compare at once.
	for i := range hits {
		for j := range hits {
			h, o := &hits[i], &hits[j]
			if out != nil {
				h = &out[i]
			}
			if j == i || h.Chunk.Text == "" || o.Chunk.Text != h.Chunk.Text || o.Source.DocID == h.Source.DocID ||
				slices.ContainsFunc(h.Copies, func(c graphrag.Source) bool { return c.DocID == o.Source.DocID }) {
				continue
			}
			if out == nil {
				out = slices.Clone(hits)
				for k := range out {
					out[k].Copies = slices.Clip(out[k].Copies)
				}
				h = &out[i]
			}
			h.Copies = append(h.Copies, o.Source)
		}
	}
	if out == nil {
		return hits
	}
	return out
}

// Copies is what Deps.Searcher may also do: read the passages whose text
// is a given text, word for word, in the documents whose IDs begin with
// one of some prefixes, ordered by document ID and place. retrieve finds
// it by type assertion (withNamedCopies); both stores have it.
type Copies interface {
	Copies(ctx context.Context, text string, prefixes []string) ([]graphrag.Hit, error)
}

// copyReads bounds the passages of the first hits whose copies
// withNamedCopies reads, one read each: the first hits rarely hold more
// than three distinct Debian passages from folders the question does not
// name. Set by reasoning, not tuned.
const copyReads = 3

// withNamedCopies adds to the first hits (those evaluate weighs:
// evidenceHits) the copy of a Debian passage that is filed in the folder
// of the package the question names, before a sibling's copy of it.
// Debian ships one source package's changelog (and often its copyright
// file) in the folder of every binary package built from it; the copies
// differ in their last line at most, so their passages are the same
// text, and which copies the search ranks first is chance: asked about
// zorp-utils, the answer cited libzorp2's changelog, and zorp-utils' copy
// was not among the hits. The store reads the passage's copies in the
// folders the question's terms may name (folderPrefixes: a range of its
// documents' IDs each, so the read takes a millisecond where a search
// among the files of the name took a tenth of a second); one in a file of
// the same name, in a folder the question names, is taken. The sibling's
// copy stays among the hits, so that the citation names it as a copy
// (withCopies): the hits grow by at most copyReads. A folder the
// question names exactly goes before one named as Debian packages the
// software (namingRank), and among folders named alike the first by ID
// goes. The hits may be the searcher's own slice: they are copied before
// any change.
func (p *pipeline) withNamedCopies(ctx context.Context, r *retrieval, hits []graphrag.Hit) []graphrag.Hit {
	first := hits[:min(len(hits), evidenceHits)]
	copier, ok := p.deps.Searcher.(Copies)
	if !ok || !slices.ContainsFunc(first, func(h graphrag.Hit) bool { return h.Source.Type == "debian" }) {
		return hits
	}
	terms := contentTerms(r.Plan.Query)
	var read []string // the passages whose copies were read
	var out []graphrag.Hit
	for _, h := range first {
		folder, name := fileIn(h.Source.Path)
		if h.Source.Type != "debian" || folder == "" || folderNamed(folder, terms) || slices.Contains(read, h.Chunk.Text) || len(read) >= copyReads {
			continue
		}
		prefixes := folderPrefixes(h.Chunk.DocID, terms)
		if len(prefixes) == 0 {
			continue
		}
		read = append(read, h.Chunk.Text)
		found, err := copier.Copies(ctx, h.Chunk.Text, prefixes)
		if err != nil {
			r.note("retrieve: reading the copies of %s failed: %v", h.Source.Path, err)
			continue
		}
		best, bestRank := -1, 0
		for j, x := range found {
			f, n := fileIn(x.Source.Path)
			if n != name || !folderNamed(f, terms) || slices.ContainsFunc(hits, func(y graphrag.Hit) bool { return y.Chunk.ID == x.Chunk.ID }) {
				continue
			}
			if rank := namingRank(f, terms); best < 0 || rank < bestRank {
				best, bestRank = j, rank
			}
		}
		if best < 0 {
			continue
		}
		if out == nil {
			out = slices.Clone(hits)
		}
		x := found[best]
		x.Score, x.Ranks = h.Score, h.Ranks
		at := slices.IndexFunc(out, func(y graphrag.Hit) bool { return y.Chunk.ID == h.Chunk.ID })
		out = slices.Insert(out, at, x)
	}
	if out == nil {
		return hits
	}
	return out
}

// folderPrefixes are the beginnings of the IDs of the documents filed in
// the folders, beside the folder of the document id, that the terms may
// name (folderNamed): each term after each of packagePrefixes, under the
// same parent ("/usr/share/doc/zorp" and "/usr/share/doc/libzorp" for
// /usr/share/doc/zorp2/changelog.Debian.gz and the term "zorp"). None
// for an ID that is no file two folders deep.
func folderPrefixes(id string, terms []term) []string {
	file := strings.LastIndex(id, "/")
	folder := strings.LastIndex(id[:max(file, 0)], "/")
	if file < 0 || folder < 0 {
		return nil
	}
	parent := id[:folder]
	var out []string
	for _, t := range terms {
		for _, prefix := range packagePrefixes {
			if p := parent + "/" + prefix + t.Word; !slices.Contains(out, p) {
				out = append(out, p)
			}
		}
	}
	return out
}

// namingRank ranks how closely a question's terms name a package's
// folder: 0 when a term is the folder's name ("zorp-utils"), 1 when the
// folder is a term with a version after it ("libzorp2" for "libzorp",
// "zorp2" for "zorp"), 2 when it is only packaged as one (packagedAs:
// "libzorp2-dev").
func namingRank(folder string, terms []term) int {
	rank := 2
	for _, t := range terms {
		if t.Word == folder {
			return 0
		}
		for _, prefix := range packagePrefixes {
			if rest, ok := strings.CutPrefix(folder, prefix+t.Word); ok && rest != "" && strings.Trim(rest, "0123456789.") == "" {
				rank = 1
			}
		}
	}
	return rank
}
