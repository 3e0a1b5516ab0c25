package graphrag

import (
	"slices"
	"strings"
	"time"
	"unicode"
)

// Route is where a query goes.
type Route string

const (
	RouteVector     Route = "vector"     // semantic search of the local files
	RouteHybrid     Route = "hybrid"     // vector + keyword: exact identifiers, names
	RouteWeb        Route = "web"        // needs fresh or outside information
	RouteFilesystem Route = "filesystem" // questions about the files themselves
	RouteDirect     Route = "direct"     // answerable without retrieval
)

// Routes lists every route in a stable order.
var Routes = []Route{RouteVector, RouteHybrid, RouteWeb, RouteFilesystem, RouteDirect}

// Valid reports whether r is one of Routes.
func (r Route) Valid() bool {
	for _, x := range Routes {
		if r == x {
			return true
		}
	}
	return false
}

// TimeWindow is a relative time filter a user says in words.
type TimeWindow string

const (
	TimeAny       TimeWindow = ""
	TimeToday     TimeWindow = "today"
	TimeThisWeek  TimeWindow = "this_week"
	TimeThisMonth TimeWindow = "this_month"
)

// Range turns the window into [since, until) relative to now, in now's
// location. Weeks start on Monday. TimeAny gives zero times.
func (w TimeWindow) Range(now time.Time) (since, until time.Time) {
	y, m, d := now.Date()
	day := time.Date(y, m, d, 0, 0, 0, 0, now.Location())
	switch w {
	case TimeToday:
		return day, day.AddDate(0, 0, 1)
	case TimeThisWeek:
		offset := (int(day.Weekday()) + 6) % 7
		start := day.AddDate(0, 0, -offset)
		return start, start.AddDate(0, 0, 7)
	case TimeThisMonth:
		start := time.Date(y, m, 1, 0, 0, 0, 0, now.Location())
		return start, start.AddDate(0, 1, 0)
	}
	return time.Time{}, time.Time{}
}

// Turn is one exchange of a conversation.
type Turn struct {
	Query  string
	Answer string
}

// Plan is the route node's decision for a query.
type Plan struct {
	Route Route
	// Query is the text to search with (the user's query, or a refined one).
	Query string
	// Queries are other wordings of Query to search with too (a planner's
	// rephrasings: synonyms, the words documents likely use); their
	// results are fused with Query's (multi-query retrieval). Empty:
	// Query alone. They belong to the question the planner saw: a
	// refined Query (a corrective loop) replaces them.
	Queries  []string
	Keywords []string
	// FileTypes are lower-case file types without a dot.
	FileTypes  []string
	SourceHint string
	Time       TimeWindow
	// Confidence is in [0,1]: how sure the router is.
	Confidence float64
	// By names the decider: "rules", "learned", "probe", "llm", ...
	By string
	// Kind is what the router took the request for, when it knows:
	// "direct" (computed, small talk), "general" (general knowledge),
	// "action" (a request to act, which graphrag cannot carry out), "web",
	// "filesystem" or "local". Empty when a planner chose a route of its own.
	Kind   string
	Reason string
	Usage  Usage
}

// Citation ties a part of an answer to a hit.
type Citation struct {
	// N is the number shown in the answer as [N], 1-based.
	N     int
	Hit   Hit
	Quote string
}

// Answer is what generate writes.
type Answer struct {
	Text      string
	Citations []Citation
	// Grounding is the share of the answer's content words found in the
	// cited text, in [0,1].
	Grounding float64
	// Coverage is the share of the query's keywords the answer covers.
	Coverage      float64
	LowConfidence bool
	// Abstained is true for "No relevant information found" answers.
	Abstained bool
	// By names the writer: "extractive", "llm", ...
	By    string
	Usage Usage
}

// Verdict is validate's judgement of an answer.
type Verdict string

const (
	VerdictOK          Verdict = "ok"
	VerdictUnsupported Verdict = "unsupported"  // not grounded in the cited text: regenerate
	VerdictOffQuestion Verdict = "off_question" // does not answer the query: route again
)

// SearchQueries returns the texts a search for the plan runs: Query, then
// each of Queries that differs from every earlier text once case, spacing
// and end punctuation are set aside, at most max in all (max < 1: no
// limit). Empty Queries give Query alone.
func (p Plan) SearchQueries(max int) []string {
	out := []string{p.Query}
	seen := []string{foldQuery(p.Query)}
	for _, q := range p.Queries {
		if max > 0 && len(out) >= max {
			break
		}
		f := foldQuery(q)
		if f == "" || slices.Contains(seen, f) {
			continue
		}
		out, seen = append(out, strings.TrimSpace(q)), append(seen, f)
	}
	return out
}

// foldQuery is q as a search sees it: lower case, single spaces, no
// punctuation at either end.
func foldQuery(q string) string {
	q = strings.Join(strings.Fields(strings.ToLower(q)), " ")
	return strings.TrimFunc(q, func(r rune) bool { return unicode.IsPunct(r) || unicode.IsSpace(r) })
}
