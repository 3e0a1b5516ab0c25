package nodes

import (
	"context"
	"errors"
	"fmt"

	"github.com/graphrag/graphrag"
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

// reasonAboutStore is the plan's reason for a question about the store.
const reasonAboutStore = "a question about the store itself: answered from its record by the filesystem tools"

// retrieve is the "retrieve" node: it runs the plan.
func (p *pipeline) retrieve(ctx context.Context, s State) (State, error) {
	s.Hits, s.ToolText, s.SearchNote, s.SearchMode, s.fused = nil, "", "", "", false
	plan := s.Plan
	switch plan.Route {
	case graphrag.RouteDirect:
		return s, nil
	case graphrag.RouteFilesystem:
		if p.deps.Tools == nil {
			s.ToolText = msgNoFileTools
			s.note("retrieve: filesystem tools are not configured")
			return s, nil
		}
		text, hits, err := p.deps.Tools.Answer(ctx, plan)
		if err != nil {
			if errors.Is(err, graphrag.ErrNotConfigured) {
				s.ToolText = msgNoFileTools
				s.note("retrieve: filesystem tools: %v", err)
				return s, nil
			}
			return s, fmt.Errorf("filesystem tools for %q: %w", plan.Query, err)
		}
		s.ToolText, s.Hits = text, hits
		return s, nil
	case graphrag.RouteWeb:
		if p.deps.Web == nil {
			s.ToolText = msgNoWeb
			if plan.By == "probe" {
				s.ToolText = msgNoLocalNoWeb
			}
			s.note("retrieve: web search is off")
			return s, nil
		}
		hits, err := p.deps.Web.SearchWeb(ctx, plan.Query, p.opts.K)
		if err != nil {
			return s, fmt.Errorf("web search %q: %w", plan.Query, err)
		}
		s.Hits = hits
		return s, nil
	}
	if p.deps.Searcher == nil {
		return s, fmt.Errorf("retrieve %q: no Searcher in Deps: %w", plan.Query, graphrag.ErrNotConfigured)
	}
	mode := graphrag.ModeVector
	if plan.Route == graphrag.RouteHybrid {
		mode = graphrag.ModeHybrid
	}
	filters := p.filters(plan)
	if sel, ok := p.deps.Tools.(FileSelector); ok && (len(plan.FileTypes) > 0 || plan.Time != graphrag.TimeAny || plan.SourceHint != "") {
		// Hybrid with tools: the file tools pick the files the filters
		// mean, and the search runs over those documents only.
		ids, err := sel.Select(ctx, plan)
		switch {
		case errors.Is(err, graphrag.ErrNotFound):
			s.fallback(ctx, "retrieve: no file matches the question's filters (%v)", err)
			return s, nil
		case err != nil:
			if ctx.Err() != nil {
				return s, ctx.Err()
			}
			s.fallback(ctx, "retrieve: file selection failed, searched with the store's filters: %v", err)
		case ids != nil:
			filters.DocIDs = ids
		}
	}
	res, err := p.deps.Searcher.Search(ctx, graphrag.Query{Text: plan.Query, Mode: mode, K: p.opts.K, Filters: filters})
	if err != nil {
		return s, fmt.Errorf("%s search %q: %w", mode, plan.Query, err)
	}
	if len(res.Hits) == 0 && filters.Source != "" {
		// The source hint is a guess from the wording; a file type or a
		// time window the user said is not.
		filters.Source, filters.DocIDs = "", nil
		res, err = p.deps.Searcher.Search(ctx, graphrag.Query{Text: plan.Query, Mode: mode, K: p.opts.K, Filters: filters})
		if err != nil {
			return s, fmt.Errorf("%s search %q: %w", mode, plan.Query, err)
		}
		s.fallback(ctx, "retrieve: nothing matched in %q: searched all files", plan.SourceHint)
	}
	s.Hits, s.SearchMode, s.SearchNote = res.Hits, res.Mode, res.Note
	if s.SearchMode == "" {
		s.SearchMode = mode
	}
	return s, nil
}
