package server

import (
	"maps"
	"slices"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/nodes"
)

// QueryRequest is the body of POST /v1/query and the params of the stdio
// "query" method.
type QueryRequest struct {
	Query   string       `json:"query"`
	History []Turn       `json:"history,omitempty"`
	Options QueryOptions `json:"options,omitzero"`
	// Thread names a conversation the server keeps (Config.Threads): its
	// earlier turns are the query's history, and this turn is appended
	// after the run. Send either Thread or History, not both.
	Thread string `json:"thread,omitempty"`
	// Resume answers a paused query (its Interrupt.Token) instead of
	// asking a new one; Query, History and Thread are then left out (the
	// paused query remembers them).
	Resume *ResumeRequest `json:"resume,omitempty"`
	// Stream selects the response framing over HTTP: "" (by Accept header,
	// JSON by default), "json", "ndjson" or "sse". Over stdio events are
	// streamed unless Stream is "json".
	Stream string `json:"stream,omitempty"`
}

// Turn is one earlier exchange of the conversation.
type Turn struct {
	Query  string `json:"query"`
	Answer string `json:"answer"`
}

// QueryOptions tune one run.
type QueryOptions struct {
	// MaxSteps lowers or raises the engine's step cap for this run
	// (at most Config.MaxSteps).
	MaxSteps int `json:"max_steps,omitempty"`
	// TimeoutMS shortens the run's deadline below Config.Timeout.
	TimeoutMS int `json:"timeout_ms,omitempty"`
	// Text includes each source's chunk text in the response.
	Text bool `json:"text,omitempty"`
}

// QueryResponse is the answer to a query: the JSON body of POST /v1/query,
// the "result" message that ends a stream, and a stdio query's result.
type QueryResponse struct {
	// Interrupt is set when the run paused to ask something (with
	// --confirm-web: may the question go to the web?). The answer fields
	// are then empty; resume with {"resume": {"token": ..., "allow": ...}}.
	Interrupt     *Interrupt `json:"interrupt,omitempty"`
	Answer        string     `json:"answer"`
	Citations     []Citation `json:"citations"`
	Sources       []Source   `json:"sources"`
	Grounding     float64    `json:"grounding"`
	Coverage      float64    `json:"coverage"`
	LowConfidence bool       `json:"low_confidence"`
	Abstained     bool       `json:"abstained"`
	// Caveats are the sentences the answer must be shown with: low
	// confidence, out of date with web search off, or about how to do
	// what was asked to be done (nodes.Caveats).
	Caveats []string `json:"caveats,omitempty"`
	// AnsweredBy names the writer ("extractive", "llm", ...).
	AnsweredBy string `json:"answered_by,omitempty"`
	// Verdict is validate's judgement of the answer ("ok", ...).
	Verdict string `json:"verdict,omitempty"`
	Route   string `json:"route"`
	Plan    Plan   `json:"plan"`
	// Retrieval is evaluate's judgement of the hits: good, poor or empty.
	Retrieval string `json:"retrieval,omitempty"`
	// SearchMode is what the store ran (keyword, vector, hybrid) and
	// SearchNote why it differs from what was asked, if it does.
	SearchMode string `json:"search_mode,omitempty"`
	SearchNote string `json:"search_note,omitempty"`
	// Stop says why the run ended as it did.
	Stop  string   `json:"stop,omitempty"`
	Notes []string `json:"notes,omitempty"`
	Usage Usage    `json:"usage"`
	Trace Trace    `json:"trace"`
}

// Citation ties [N] in the answer to a source.
type Citation struct {
	N int `json:"n"`
	// ID is the cited chunk's id; Source in Sources has the same id.
	ID    string  `json:"id"`
	DocID string  `json:"doc_id"`
	Title string  `json:"title,omitempty"`
	Path  string  `json:"path,omitempty"`
	URL   string  `json:"url,omitempty"`
	Score float64 `json:"score"`
	Quote string  `json:"quote,omitempty"`
	// Copies are the paths of the other files that hold the cited text
	// word for word (graphrag.Hit.Copies).
	Copies []string `json:"copies,omitempty"`
}

// Source is one retrieved hit, best first.
type Source struct {
	ID      string  `json:"id"`
	DocID   string  `json:"doc_id"`
	Title   string  `json:"title,omitempty"`
	Path    string  `json:"path,omitempty"`
	Type    string  `json:"type,omitempty"`
	URL     string  `json:"url,omitempty"`
	ModTime string  `json:"modified,omitempty"`
	Score   float64 `json:"score"`
	// Kept is true for the hits evaluate kept to answer from.
	Kept bool `json:"kept"`
	// KeywordRank and VectorRank are 1-based positions in each ranked list; 0: absent.
	KeywordRank int `json:"keyword_rank,omitempty"`
	VectorRank  int `json:"vector_rank,omitempty"`
	// StartLine and EndLine locate the passage in its file (1-based,
	// inclusive; absent when unknown); Heading and Symbol name its section
	// or declaration.
	StartLine int    `json:"start_line,omitempty"`
	EndLine   int    `json:"end_line,omitempty"`
	Heading   string `json:"heading,omitempty"`
	Symbol    string `json:"symbol,omitempty"`
	Text      string `json:"text,omitempty"`
}

// Plan is the route node's decision.
type Plan struct {
	Route string `json:"route"`
	Query string `json:"query,omitempty"`
	// Queries are other wordings of Query a planner proposed, searched
	// with it (multi-query retrieval).
	Queries    []string `json:"queries,omitempty"`
	Keywords   []string `json:"keywords,omitempty"`
	FileTypes  []string `json:"file_types,omitempty"`
	SourceHint string   `json:"source_hint,omitempty"`
	Time       string   `json:"time,omitempty"`
	Confidence float64  `json:"confidence"`
	By         string   `json:"by,omitempty"`
	// Kind is what the router took the request for: direct, general,
	// action (graphrag cannot act on it), web, filesystem or local.
	Kind   string `json:"kind,omitempty"`
	Reason string `json:"reason,omitempty"`
}

// Usage counts language-model work: the total and per node.
type Usage struct {
	Calls            int              `json:"calls"`
	PromptTokens     int              `json:"prompt_tokens"`
	CompletionTokens int              `json:"completion_tokens"`
	ByNode           map[string]Count `json:"by_node,omitempty"`
}

// Count is one node's language-model usage.
type Count struct {
	Calls            int `json:"calls"`
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
}

// Trace summarises the run: each node visit with its duration, and each
// decision with its reason.
type Trace struct {
	Steps      int        `json:"steps"`
	DurationMS float64    `json:"duration_ms"`
	Nodes      []NodeSpan `json:"nodes"`
	Decisions  []Decision `json:"decisions"`
}

// NodeSpan is one node visit.
type NodeSpan struct {
	Step int    `json:"step"`
	Node string `json:"node"`
	// Subgraph is the subgraph the node belongs to ("retrieve" for its
	// branches), Branch its 1-based place in a parallel fan-out; both
	// absent for the graph's own nodes.
	Subgraph   string  `json:"subgraph,omitempty"`
	Branch     int     `json:"branch,omitempty"`
	DurationMS float64 `json:"duration_ms"`
	Error      string  `json:"error,omitempty"`
}

// Decision is one conditional edge taken.
type Decision struct {
	Step   int    `json:"step"`
	From   string `json:"from"`
	To     string `json:"to"`
	Reason string `json:"reason,omitempty"`
}

// IngestRequest is the body of POST /v1/ingest and the params of the stdio
// "ingest" method. No paths means every configured root.
type IngestRequest struct {
	Paths []string `json:"paths"`
}

// GraphResponse is the stdio "graph" method's result.
type GraphResponse struct {
	Format  string `json:"format"`
	Diagram string `json:"diagram"`
}

// ErrorBody is the "error" member of every error response.
type ErrorBody struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

func toTurns(h []Turn) []graphrag.Turn {
	if len(h) == 0 {
		return nil
	}
	out := make([]graphrag.Turn, len(h))
	for i, t := range h {
		out[i] = graphrag.Turn{Query: t.Query, Answer: t.Answer}
	}
	return out
}

// response builds the wire answer from a final state and the run's trace.
func response(s nodes.State, tr Trace, withText bool) QueryResponse {
	a := s.Answer
	r := QueryResponse{
		Answer:        a.Text,
		Citations:     make([]Citation, 0, len(a.Citations)),
		Sources:       make([]Source, 0, len(s.Hits)),
		Grounding:     a.Grounding,
		Coverage:      a.Coverage,
		LowConfidence: a.LowConfidence,
		Abstained:     a.Abstained,
		Caveats:       nodes.Caveats(s),
		AnsweredBy:    a.By,
		Verdict:       string(s.Verdict),
		Retrieval:     s.Retrieval,
		SearchMode:    string(s.SearchMode),
		SearchNote:    s.SearchNote,
		Route:         string(s.Plan.Route),
		Plan: Plan{
			Route:      string(s.Plan.Route),
			Query:      s.Plan.Query,
			Queries:    s.Plan.Queries,
			Keywords:   s.Plan.Keywords,
			FileTypes:  s.Plan.FileTypes,
			SourceHint: s.Plan.SourceHint,
			Time:       string(s.Plan.Time),
			Confidence: s.Plan.Confidence,
			By:         s.Plan.By,
			Kind:       s.Plan.Kind,
			Reason:     s.Plan.Reason,
		},
		Stop:  s.Stop,
		Notes: s.Notes,
		Usage: usage(s.Usage),
		Trace: tr,
	}
	for _, c := range a.Citations {
		r.Citations = append(r.Citations, Citation{
			N:      c.N,
			ID:     c.Hit.Chunk.ID,
			DocID:  docID(c.Hit),
			Title:  c.Hit.Source.Title,
			Path:   c.Hit.Source.Path,
			URL:    c.Hit.Source.URL,
			Score:  c.Hit.Score,
			Quote:  c.Quote,
			Copies: copyPaths(c.Hit),
		})
	}
	kept := make(map[string]bool, len(s.Kept))
	for _, h := range s.Kept {
		kept[h.Chunk.ID] = true
	}
	for _, h := range s.Hits {
		src := Source{
			Kept:        kept[h.Chunk.ID],
			ID:          h.Chunk.ID,
			DocID:       docID(h),
			Title:       h.Source.Title,
			Path:        h.Source.Path,
			Type:        h.Source.Type,
			URL:         h.Source.URL,
			Score:       h.Score,
			KeywordRank: h.Ranks.Keyword,
			VectorRank:  h.Ranks.Vector,
			StartLine:   h.Chunk.StartLine,
			EndLine:     h.Chunk.EndLine,
			Heading:     h.Chunk.Heading,
			Symbol:      h.Chunk.Symbol,
		}
		if !h.Source.ModTime.IsZero() {
			src.ModTime = h.Source.ModTime.UTC().Format("2006-01-02T15:04:05Z")
		}
		if withText {
			src.Text = h.Chunk.Text
		}
		r.Sources = append(r.Sources, src)
	}
	return r
}

func docID(h graphrag.Hit) string {
	if h.Source.DocID != "" {
		return h.Source.DocID
	}
	return h.Chunk.DocID
}

func usage(m map[string]graphrag.Usage) Usage {
	var u Usage
	if len(m) == 0 {
		return u
	}
	u.ByNode = make(map[string]Count, len(m))
	for _, node := range slices.Sorted(maps.Keys(m)) {
		v := m[node]
		u.Calls += v.Calls
		u.PromptTokens += v.PromptTokens
		u.CompletionTokens += v.CompletionTokens
		u.ByNode[node] = Count{v.Calls, v.PromptTokens, v.CompletionTokens}
	}
	return u
}

// copyPaths are the paths of a hit's copies (graphrag.Hit.Copies), nil
// when it has none.
func copyPaths(h graphrag.Hit) []string {
	var out []string
	for _, c := range h.Copies {
		out = append(out, c.Path)
	}
	return out
}
