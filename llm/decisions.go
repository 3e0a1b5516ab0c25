package llm

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/graphrag/graphrag"
	"github.com/invopop/jsonschema"
)

// RoutePlan is what the planner model is asked to return.
type RoutePlan struct {
	Route string `json:"route" jsonschema:"enum=vector,enum=hybrid,enum=web,enum=filesystem,enum=direct"`
	// Query is the question rewritten to stand alone.
	Query string `json:"query"`
	// Queries are up to maxAlternatives other short wordings of the
	// question, searched too (graphrag.Plan.Queries). maxItems is
	// maxAlternatives (a struct tag cannot name a constant;
	// TestRoutePlanSchemaCapsQueries checks they agree).
	Queries    []string `json:"queries" jsonschema:"maxItems=3"`
	Keywords   []string `json:"keywords" jsonschema:"maxItems=6"`
	FileTypes  []string `json:"file_types"`
	SourceHint string   `json:"source_hint"`
	Time       string   `json:"time" jsonschema:"enum=any,enum=today,enum=this_week,enum=this_month"`
}

// ChunkGrades is what the grader model is asked to return: the numbers of
// the relevant chunks (1-based, as shown to it) and the facts it took from them.
type ChunkGrades struct {
	Relevant []int        `json:"relevant"`
	Facts    []GradedFact `json:"facts"`
}

// GradedFact is one fact and the chunk number it comes from.
type GradedFact struct {
	Chunk int    `json:"chunk"`
	Text  string `json:"text"`
}

// Verdict is what the judge model is asked to return.
type Verdict struct {
	Grounded        bool   `json:"grounded"`
	AnswersQuestion bool   `json:"answers_question"`
	Reason          string `json:"reason"`
}

// Rewrite is what the rewriter model is asked to return.
type Rewrite struct {
	Query string `json:"query"`
}

// schema is a decision's JSON Schema, ready for the wire.
type schema struct {
	name string
	raw  json.RawMessage
}

func schemaFor(name string, v any) *schema {
	r := jsonschema.Reflector{DoNotReference: true, ExpandedStruct: true}
	s := r.Reflect(v)
	s.Version, s.ID = "", ""
	raw, err := json.Marshal(s)
	if err != nil {
		panic(fmt.Sprintf("llm: schema for %s: %v", name, err)) // a programming error
	}
	return &schema{name: name, raw: raw}
}

var (
	routePlanSchema   = schemaFor("route_plan", &RoutePlan{})
	chunkGradesSchema = schemaFor("chunk_grades", &ChunkGrades{})
	verdictSchema     = schemaFor("verdict", &Verdict{})
	rewriteSchema     = schemaFor("rewrite", &Rewrite{})
)

// Schemas returns the JSON Schema of each decision by name, as sent to the
// servers (for documentation and tests).
func Schemas() map[string]json.RawMessage {
	out := map[string]json.RawMessage{}
	for _, s := range []*schema{routePlanSchema, chunkGradesSchema, verdictSchema, rewriteSchema} {
		out[s.name] = s.raw
	}
	return out
}

// errNoDecision: nothing in the text looked like the decision.
var errNoDecision = errors.New("no decision found in the output")

// parse runs the shared strategy: every JSON candidate, then a bare word,
// then a regex for the key field. fromMap reports whether m held the
// decision's key field and, if so, whether its values were valid; the
// first invalid value is the error when nothing valid is found.
func parse(text string, fromMap func(m map[string]any) (bool, error), fallback func(text string) (map[string]any, bool)) error {
	var firstErr error
	try := func(m map[string]any) bool {
		matched, err := fromMap(m)
		if matched && err == nil {
			return true
		}
		if matched && firstErr == nil {
			firstErr = err
		}
		return false
	}
	for _, v := range candidates(text) {
		for _, m := range objects(v) {
			if try(m) {
				return nil
			}
		}
	}
	if firstErr == nil && fallback != nil {
		if m, ok := fallback(text); ok && try(m) {
			return nil
		}
	}
	if firstErr != nil {
		return firstErr
	}
	return errNoDecision
}

func badOutput(text string, err error) error {
	return fmt.Errorf("%w: %w (output %q)", ErrBadOutput, err, clip(strings.TrimSpace(text), 160))
}

// --- route plans ---

var routeAliases = map[string]graphrag.Route{
	"semantic": graphrag.RouteVector, "semantic_search": graphrag.RouteVector,
	"vector_search": graphrag.RouteVector, "vectorstore": graphrag.RouteVector,
	"hybrid_search": graphrag.RouteHybrid, "keyword": graphrag.RouteHybrid, "keyword_search": graphrag.RouteHybrid,
	"web_search": graphrag.RouteWeb, "websearch": graphrag.RouteWeb, "internet": graphrag.RouteWeb,
	"file_system": graphrag.RouteFilesystem, "files": graphrag.RouteFilesystem, "fs": graphrag.RouteFilesystem,
	"no_retrieval": graphrag.RouteDirect, "none": graphrag.RouteDirect,
}

func normRoute(s string) (graphrag.Route, bool) {
	s = normKey(strings.Trim(s, " \"'`[]()<>.,"))
	if r := graphrag.Route(s); r.Valid() {
		return r, true
	}
	r, ok := routeAliases[s]
	return r, ok
}

func normTime(v any) (graphrag.TimeWindow, bool) {
	s := normKey(str(v))
	switch s {
	case "", "any", "none", "null", "all", "anytime", "any_time", "no":
		return graphrag.TimeAny, true
	case "today", "day", "last_24h", "24h":
		return graphrag.TimeToday, true
	case "this_week", "week", "past_week", "last_week", "last_7_days":
		return graphrag.TimeThisWeek, true
	case "this_month", "month", "past_month", "last_month", "last_30_days":
		return graphrag.TimeThisMonth, true
	}
	return "", false
}

var routeKeyRe = regexp.MustCompile(`(?i)["']?\b(?:route|tool|strategy)["']?\s*[:=]\s*["'\[(]?\s*([A-Za-z_]+)`)

// ParseRoutePlan reads a route plan from model output. An unknown route or
// time value is an error matching ErrBadOutput.
func ParseRoutePlan(text string) (graphrag.Plan, error) {
	var plan graphrag.Plan
	err := parse(text, func(m map[string]any) (bool, error) {
		rv, ok := get(m, "route", "tool", "strategy", "retrieval", "retrieval_strategy", "destination", "datasource")
		if !ok {
			return false, nil
		}
		route, ok := normRoute(str(rv))
		if !ok {
			return true, fmt.Errorf("route %q is not one of %v", str(rv), graphrag.Routes)
		}
		p := graphrag.Plan{Route: route}
		if q, ok := get(m, "query", "standalone_query", "rewritten_query", "search_query", "question"); ok {
			p.Query = str(q)
		}
		if a, ok := get(m, "queries", "alternative_queries", "alternatives", "rephrasings", "paraphrases", "search_queries"); ok {
			p.Queries = alternatives(a, p.Query)
		}
		if k, ok := get(m, "keywords", "key_words", "search_terms", "terms"); ok {
			p.Keywords = dedupe(strs(k), 8)
		}
		if f, ok := get(m, "file_types", "file_type", "file_filter", "filetypes", "filetype", "extensions", "types"); ok {
			p.FileTypes = fileTypes(strs(f))
		}
		if s, ok := get(m, "source_hint", "source", "filename", "file_name"); ok {
			p.SourceHint = cleanNull(str(s))
		}
		if t, ok := get(m, "time", "time_filter", "time_window", "timeframe"); ok {
			w, ok := normTime(t)
			if !ok {
				return true, fmt.Errorf("time %q is not one of any, today, this_week, this_month", str(t))
			}
			p.Time = w
		}
		plan = p
		return true, nil
	}, func(text string) (map[string]any, bool) {
		if w := bareWord(text); w != "" {
			if _, ok := normRoute(w); ok {
				return map[string]any{"route": w}, true
			}
		}
		if m := routeKeyRe.FindStringSubmatch(text); m != nil {
			return map[string]any{"route": m[1]}, true
		}
		return nil, false
	})
	if err != nil {
		return graphrag.Plan{}, badOutput(text, err)
	}
	return plan, nil
}

// maxAlternatives is how many other wordings of the question a plan may
// carry (RoutePlan.Queries). Three is LangChain's MultiQueryRetriever's
// number, and with the question itself the four queries RAG-Fusion
// searches; more is more searches per question for wordings that repeat
// each other (nodes.Options.MaxQueries caps what is searched).
const maxAlternatives = 3

// maxQueryChars: a search query longer than this is prose (an
// explanation, a model running on), not a query.
const maxQueryChars = 300

// alternatives reads a plan's other wordings of query: a list of strings
// (a lone string is one wording), each trimmed, none longer than
// maxQueryChars, none repeating query or another, at most maxAlternatives.
// Anything else in the list (numbers, objects, nulls) is dropped.
func alternatives(v any, query string) []string {
	var in []string
	switch x := v.(type) {
	case string:
		in = []string{x}
	case []any:
		for _, e := range x {
			if s, ok := e.(string); ok {
				in = append(in, s)
			}
		}
	}
	var keep []string
	for _, s := range in {
		s = strings.Trim(strings.TrimSpace(s), "\"'`")
		if s != "" && len(s) <= maxQueryChars && cleanNull(s) != "" {
			keep = append(keep, s)
		}
	}
	return sameQueries(keep, query)
}

// sameQueries drops from alts the wordings that repeat query or each
// other (graphrag.Plan.SearchQueries) and keeps at most maxAlternatives.
func sameQueries(alts []string, query string) []string {
	if len(alts) == 0 {
		return nil
	}
	qs := graphrag.Plan{Query: query, Queries: alts}.SearchQueries(1 + maxAlternatives)
	if len(qs) == 1 {
		return nil
	}
	return qs[1:]
}

func cleanNull(s string) string {
	switch strings.ToLower(s) {
	case "null", "none", "n/a", "any":
		return ""
	}
	return s
}

func fileTypes(in []string) []string {
	var out []string
	for _, t := range in {
		t = strings.ToLower(strings.TrimPrefix(strings.TrimSpace(t), "*"))
		t = strings.TrimPrefix(t, ".")
		if cleanNull(t) == "" || strings.ContainsAny(t, " /") {
			continue
		}
		out = append(out, t)
	}
	return dedupe(out, 8)
}

func dedupe(in []string, max int) []string {
	var out []string
	for _, s := range in {
		if s = strings.TrimSpace(s); s != "" && !slices.Contains(out, s) && len(out) < max {
			out = append(out, s)
		}
	}
	return out
}

// --- chunk grades ---

var relevantKeyRe = regexp.MustCompile(`(?i)["']?relevant\w*["']?\s*[:=]\s*\[([^\]]*)\]`)

// ParseChunkGrades reads chunk grades for n chunks numbered 1..n from model
// output. Numbers out of range are dropped; if every number was out of
// range, or nothing is found, the error matches ErrBadOutput. A fact from a
// chunk the model did not list makes that chunk relevant. The result's
// numbers are still 1-based.
func ParseChunkGrades(text string, n int) (ChunkGrades, error) {
	var out ChunkGrades
	err := parse(text, func(m map[string]any) (bool, error) {
		g, matched, err := gradesFromMap(m, n)
		if matched && err == nil {
			out = g
		}
		return matched, err
	}, func(text string) (map[string]any, bool) {
		if m := relevantKeyRe.FindStringSubmatch(text); m != nil {
			var ids []any
			for _, s := range intRe.FindAllString(m[1], -1) {
				ids = append(ids, s)
			}
			return map[string]any{"relevant": ids}, true
		}
		return nil, false
	})
	if err != nil {
		return ChunkGrades{}, badOutput(text, err)
	}
	return out, nil
}

// A per-chunk list ([{"chunk":1,"relevant":true,"facts":[...]}, ...]) is
// accepted as well, wrapped by candidates' objects() as a single key.
func gradesFromMap(m map[string]any, n int) (ChunkGrades, bool, error) {
	relV, hasRel := get(m, "relevant", "relevant_ids", "relevant_chunks", "relevant_excerpts", "ids", "chunks", "excerpts", "grades")
	factsV, hasFacts := get(m, "facts", "extracted_facts", "evidence")
	if !hasRel && !hasFacts {
		return ChunkGrades{}, false, nil
	}
	var ids []int
	var facts []GradedFact
	seen, dropped := 0, 0
	addID := func(id int) {
		seen++
		if id < 1 || id > n {
			dropped++
			return
		}
		if !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	addFact := func(id int, text string) {
		text = strings.TrimSpace(text)
		if id < 1 || id > n || text == "" || len(facts) >= 24 {
			return
		}
		facts = append(facts, GradedFact{Chunk: id, Text: clip(text, 400)})
	}
	if list, ok := relV.([]any); ok {
		for _, e := range list {
			if em, ok := e.(map[string]any); ok { // per-chunk objects
				em = normKeys(em)
				idV, _ := get(em, "chunk", "id", "n", "excerpt", "index", "number")
				id, ok := toInt(idV)
				if !ok {
					continue
				}
				if rv, has := get(em, "relevant", "is_relevant"); has {
					if b, ok := toBool(rv); ok && !b {
						continue
					}
				}
				addID(id)
				if fv, has := get(em, "facts", "fact"); has {
					for _, f := range strs(fv) {
						addFact(id, f)
					}
				}
				continue
			}
			if id, ok := toInt(e); ok {
				addID(id)
			}
		}
	} else if id, ok := toInt(relV); ok {
		addID(id)
	}
	switch fv := factsV.(type) {
	case []any:
		for _, e := range fv {
			switch f := e.(type) {
			case map[string]any:
				f = normKeys(f)
				idV, _ := get(f, "chunk", "id", "source", "n", "excerpt", "index", "number", "ref")
				id, ok := toInt(idV)
				tv, _ := get(f, "text", "fact", "statement", "content")
				if !ok && len(ids) == 1 {
					id = ids[0] // one relevant chunk: the fact is from it
				}
				addFact(id, str(tv))
			case string:
				if m := factRefRe.FindStringSubmatch(f); m != nil {
					id, _ := toInt(m[1])
					addFact(id, m[2])
				} else if len(ids) == 1 {
					addFact(ids[0], f)
				}
			}
		}
	case map[string]any: // {"2": ["fact", ...]}
		for k, v := range fv {
			if id, ok := toInt(k); ok {
				for _, f := range strs(v) {
					addFact(id, f)
				}
			}
		}
		slices.SortStableFunc(facts, func(a, b GradedFact) int { return a.Chunk - b.Chunk })
	}
	for _, f := range facts {
		if !slices.Contains(ids, f.Chunk) {
			ids = append(ids, f.Chunk)
		}
	}
	if seen > 0 && dropped == seen && len(ids) == 0 {
		return ChunkGrades{}, true, fmt.Errorf("every chunk number is outside 1..%d", n)
	}
	return ChunkGrades{Relevant: ids, Facts: facts}, true, nil
}

var factRefRe = regexp.MustCompile(`^\s*[\[(#]?\s*(\d+)\s*[\]):.\-]\s*(.+)$`)

// --- verdicts ---

var groundedKeyRe = regexp.MustCompile(`(?i)["']?grounded["']?\s*[:=]\s*["']?(true|false|yes|no)`)

// ParseVerdict reads a judge's verdict from model output.
func ParseVerdict(text string) (Verdict, error) {
	var out Verdict
	err := parse(text, func(m map[string]any) (bool, error) {
		v := Verdict{AnswersQuestion: true}
		if r, ok := get(m, "reason", "explanation", "why"); ok {
			v.Reason = str(r)
		}
		if vv, ok := get(m, "verdict", "result", "decision"); ok {
			switch normKey(str(vv)) {
			case "ok", "valid", "good", "grounded", "supported", "pass":
				v.Grounded = true
			case "unsupported", "invalid", "ungrounded", "not_grounded", "hallucinated", "fail":
				v.Grounded = false
			case "off_question", "off_topic", "irrelevant":
				v.Grounded, v.AnswersQuestion = true, false
			default:
				return true, fmt.Errorf("verdict %q is not one of ok, unsupported, off_question", str(vv))
			}
			out = v
			return true, nil
		}
		gv, ok := get(m, "grounded", "supported", "is_grounded", "faithful")
		if !ok {
			return false, nil
		}
		g, ok := toBool(gv)
		if !ok {
			return true, fmt.Errorf("grounded is %v, not true or false", gv)
		}
		v.Grounded = g
		if av, ok := get(m, "answers_question", "answers", "answers_the_question", "addresses_question", "relevant", "on_topic"); ok {
			a, ok := toBool(av)
			if !ok {
				return true, fmt.Errorf("answers_question is %v, not true or false", av)
			}
			v.AnswersQuestion = a
		}
		out = v
		return true, nil
	}, func(text string) (map[string]any, bool) {
		if w := bareWord(text); w != "" {
			return map[string]any{"verdict": w}, true
		}
		if m := groundedKeyRe.FindStringSubmatch(text); m != nil {
			return map[string]any{"grounded": m[1]}, true
		}
		return nil, false
	})
	if err != nil {
		return Verdict{}, badOutput(text, err)
	}
	return out, nil
}

// GraphVerdict maps a judge's verdict onto the graph's: not grounded is
// unsupported (regenerate), grounded but beside the point is off_question.
func (v Verdict) GraphVerdict() graphrag.Verdict {
	switch {
	case !v.Grounded:
		return graphrag.VerdictUnsupported
	case !v.AnswersQuestion:
		return graphrag.VerdictOffQuestion
	}
	return graphrag.VerdictOK
}

// --- rewrites ---

// ParseRewrite reads a rewritten query from model output: {"query": "..."}
// or, failing that, a single plain line.
func ParseRewrite(text string) (string, error) {
	var out string
	err := parse(text, func(m map[string]any) (bool, error) {
		q, ok := get(m, "query", "rewritten_query", "search_query", "rewrite", "new_query", "rewritten")
		if !ok {
			return false, nil
		}
		s := str(q)
		if s == "" {
			return true, errors.New("empty query")
		}
		out = s
		return true, nil
	}, func(text string) (map[string]any, bool) {
		t := strings.TrimSpace(stripThink(text))
		if t == "" || strings.Contains(t, "\n") || strings.ContainsAny(t[:1], "{[") {
			return nil, false
		}
		if i := strings.Index(strings.ToLower(t), "query:"); i >= 0 {
			t = t[i+len("query:"):]
		}
		return map[string]any{"query": strings.Trim(t, " \"'`")}, true
	})
	if err != nil {
		return "", badOutput(text, err)
	}
	if len(out) > maxQueryChars {
		return "", badOutput(text, fmt.Errorf("rewrite longer than %d characters", maxQueryChars))
	}
	return out, nil
}
