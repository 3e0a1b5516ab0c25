package nodes

import (
	"context"
	"fmt"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/graph"
)

// With Options.ConfirmWeb, the web branch of retrieve pauses the run before
// a question leaves the machine: it calls graph.Interrupt with a
// WebConfirmation, and the run returns a *graph.Interrupted. The caller
// asks the user and resumes the run (graph.Resume) with true, and the
// question is sent, or false, and the run answers from the local files
// only, saying so in its notes. A run can pause only when it has a thread
// and the graph a checkpointer (Build's compile options).

// WebConfirmation is the payload of the interrupt before a web search:
// what would be sent, and where.
type WebConfirmation struct {
	// Query is the text the web search would receive.
	Query string `json:"query"`
	// Provider is where it would go: the search provider's address when
	// Deps.Web says it (WebEndpoint), otherwise "the web search".
	Provider string `json:"provider"`
}

// WebEndpoint is what Deps.Web may also do: say where its queries go
// (retrievers/web.SearxNG's base URL). The web confirmation shows it.
type WebEndpoint interface {
	BaseURL() string
}

// Notes of a declined web search.
const (
	noteWebDeclined      = "web search declined: nothing was sent to %s; answered from your files only"
	noteWebDeclinedAgain = "web search was declined earlier in this run: searched your files only"
	reasonWebDeclined    = "; the web search was declined, so your files were searched instead"
)

// provider names where the web searcher sends queries.
func (p *pipeline) provider() string {
	if e, ok := p.deps.Web.(WebEndpoint); ok && e.BaseURL() != "" {
		return e.BaseURL()
	}
	return "the web search"
}

// searchWeb is the "web" node: the web search, asked for first with
// Options.ConfirmWeb.
func (p *pipeline) searchWeb(ctx context.Context, r retrieval) (retrieval, error) {
	plan := r.Plan
	if p.deps.Web == nil {
		r.ToolText = msgNoWeb
		if plan.By == "probe" {
			r.ToolText = msgNoLocalNoWeb
		}
		r.note("retrieve: web search is off")
		return r, nil
	}
	if r.WebDeclined {
		r.note(noteWebDeclinedAgain)
		return p.searchInstead(ctx, r)
	}
	if p.opts.ConfirmWeb {
		allow, err := graph.Interrupt[bool](ctx, WebConfirmation{Query: plan.Query, Provider: p.provider()})
		if err != nil {
			return r, err
		}
		if !allow {
			r.WebDeclined = true
			r.note(noteWebDeclined, p.provider())
			return p.searchInstead(ctx, r)
		}
	}
	hits, err := p.deps.Web.SearchWeb(ctx, plan.Query, p.opts.K)
	if err != nil {
		return r, fmt.Errorf("web search %q: %w", plan.Query, err)
	}
	r.Hits = hits
	return r, nil
}

// searchInstead searches the local files for a question the user would not
// send to the web: a hybrid search, as for a question with names in it,
// in one call with the question alone (other wordings run as branches,
// which the web branch does not start).
func (p *pipeline) searchInstead(ctx context.Context, r retrieval) (retrieval, error) {
	r.Plan.Route = graphrag.RouteHybrid
	r.Plan.Reason += reasonWebDeclined
	r, err := p.selectSearch(ctx, r)
	if err != nil || r.Skip {
		return r, err
	}
	r.Text = r.Plan.Query
	return p.searchWhole(ctx, r)
}
