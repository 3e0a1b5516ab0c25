package llm

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/graphrag/graphrag"
)

// Output caps per decision, well above what a well-behaved answer needs:
// a small model caught in a repetition loop on a CPU would otherwise run
// on to DecideMaxTokens (a minute at ten tokens a second). The grader,
// whose facts grow with the chunks, gets the full DecideMaxTokens.
const (
	planTokens    = 256
	rewriteTokens = 96
	judgeTokens   = 160
)

// Planner is the language-model router (nodes.Planner).
type Planner struct {
	chat *chat
	cfg  Config
}

// Plan asks the decision model for a plan. The history resolves references
// ("what about that invoice?"); with no history the user's words are kept
// as the query, since small models paraphrase away exact identifiers.
// Filters (file types, source, time) that neither the question nor the
// history mentions are dropped, and the Reason says so: a filter invented
// by a small model would empty the search.
// Confidence is left 0: small models' self-reported confidence is not
// calibrated, and the caller only asks the planner when it is unsure.
func (p *Planner) Plan(ctx context.Context, query string, history []graphrag.Turn) (graphrag.Plan, error) {
	h := lastTurns(history, p.cfg.HistoryTurns)
	text, usage, err := p.chat.generate(ctx, request{op: "plan", system: systemDecide, user: planPrompt(query, h), schema: routePlanSchema, maxToken: planTokens})
	if err != nil {
		return graphrag.Plan{}, err
	}
	plan, err := ParseRoutePlan(text)
	if err != nil {
		return graphrag.Plan{}, p.chat.bad("plan", text, err, usage)
	}
	if len(h) == 0 || plan.Query == "" {
		plan.Query = query
	}
	plan.Queries = sameQueries(plan.Queries, plan.Query)
	plan, dropped := groundPlan(plan, query, h)
	plan.By = "llm"
	plan.Reason = fmt.Sprintf("llm planner (%s) chose %s", p.chat.spec.Name(), plan.Route)
	if len(dropped) > 0 {
		plan.Reason += "; dropped filters the question does not mention: " + strings.Join(dropped, ", ")
	}
	plan.Usage = usage
	return plan, nil
}

// Grader grades retrieved hits and extracts facts (nodes.Grader).
//
// It grades every hit in ONE call (numbered chunks in, relevant numbers and
// facts out) rather than one call per chunk as the original map stage did:
// on a small local model each call pays the prompt prefill and the model's
// fixed latency, so eight per-chunk calls cost several times one batched
// call, and the per-question budget of three calls could not hold. The
// text per chunk is capped (GradeChunkChars) so the batch fits the context
// window of a small model.
type Grader struct {
	chat *chat
	cfg  Config
}

// Grade returns the relevant hits (0-based indexes into hits, best first)
// and the facts taken from them. A fact whose words (and every number) are
// not in the chunk it cites is moved to the shown chunk that has them, or
// dropped: a small model's invented fact must not reach the answer. Hits beyond GradeMaxChunks are not graded
// and count as not relevant. No hits cost no call.
func (g *Grader) Grade(ctx context.Context, query string, hits []graphrag.Hit) (graphrag.Grading, error) {
	if len(hits) == 0 {
		return graphrag.Grading{By: "llm", Reason: "nothing to grade"}, nil
	}
	shown := hits
	if len(shown) > g.cfg.GradeMaxChunks {
		shown = shown[:g.cfg.GradeMaxChunks]
	}
	text, usage, err := g.chat.generate(ctx, request{op: "grade", system: systemDecide, user: gradePrompt(query, shown, g.cfg.GradeChunkChars), schema: chunkGradesSchema})
	if err != nil {
		return graphrag.Grading{}, err
	}
	cg, err := ParseChunkGrades(text, len(shown))
	if err != nil {
		return graphrag.Grading{}, g.chat.bad("grade", text, err, usage)
	}
	facts, unsupported := groundFacts(cg.Facts, shown)
	out := graphrag.Grading{By: "llm", Usage: usage}
	for _, id := range cg.Relevant {
		out.Relevant = append(out.Relevant, id-1)
	}
	for _, f := range facts {
		out.Facts = append(out.Facts, graphrag.Fact{Text: f.Text, Hit: f.Chunk - 1})
		if !slices.Contains(out.Relevant, f.Chunk-1) {
			out.Relevant = append(out.Relevant, f.Chunk-1)
		}
	}
	out.Reason = fmt.Sprintf("llm grader (%s): %d of %d relevant, %d facts", g.chat.spec.Name(), len(out.Relevant), len(shown), len(out.Facts))
	if unsupported > 0 {
		out.Reason += fmt.Sprintf(", %d dropped as not in their chunk", unsupported)
	}
	return out, nil
}

// Rewriter rewrites a query after poor retrieval (nodes.Rewriter).
type Rewriter struct {
	chat *chat
}

// Rewrite returns a better search query. A rewrite that is the query
// again is ErrBadOutput, so the caller's own rewrite takes over.
func (r *Rewriter) Rewrite(ctx context.Context, query string, hits []graphrag.Hit) (string, error) {
	q, _, err := r.RewriteWithUsage(ctx, query, hits)
	return q, err
}

// RewriteWithUsage is Rewrite with the usage of the call.
func (r *Rewriter) RewriteWithUsage(ctx context.Context, query string, hits []graphrag.Hit) (string, graphrag.Usage, error) {
	text, usage, err := r.chat.generate(ctx, request{op: "rewrite", system: systemDecide, user: rewritePrompt(query, hits), schema: rewriteSchema, maxToken: rewriteTokens})
	if err != nil {
		return "", usage, err
	}
	q, err := ParseRewrite(text)
	if err == nil && strings.EqualFold(strings.TrimSpace(q), strings.TrimSpace(query)) {
		err = errors.New("the rewrite is the query unchanged")
	}
	if err != nil {
		return "", usage, r.chat.bad("rewrite", text, err, usage)
	}
	return q, usage, nil
}

// Writer writes answers with citations (nodes.Writer).
type Writer struct {
	chat *chat
	cfg  Config
}

// Write streams an answer through emit (may be nil) and returns it with
// its citations. Given facts, the model sees only the facts (the original
// design: the answer never reads raw, noisy chunks); otherwise it sees the
// capped hits. Facts' Hit indexes req.Hits. With no hits at all it answers
// directly (the direct route). Citation markers [n] stay in the text;
// markers that point at no hit are removed from the returned text (they
// may already have been streamed).
func (w *Writer) Write(ctx context.Context, req graphrag.WriteRequest, emit func(token string)) (graphrag.Answer, error) {
	var prompt string
	if len(req.Hits) == 0 && len(req.Facts) == 0 {
		prompt = directPrompt(req, w.cfg.HistoryTurns)
	} else {
		prompt = writePrompt(req, w.cfg.GradeChunkChars, w.cfg.HistoryTurns)
	}
	var stream func(string)
	var tf *thinkFilter
	if emit != nil {
		tf = &thinkFilter{emit: emit}
		stream = tf.write
	}
	text, usage, err := w.chat.generate(ctx, request{op: "write", system: systemWrite, user: prompt, stream: stream})
	if err != nil {
		return graphrag.Answer{}, err
	}
	if tf != nil {
		tf.flush()
	}
	text = strings.TrimSpace(stripThink(text))
	if len(text) > 7 && strings.EqualFold(text[:7], "answer:") { // an echo of the prompt's last line
		text = strings.TrimSpace(text[7:])
	}
	if jsonAnswer(req.Query, text) {
		return graphrag.Answer{Usage: usage}, w.chat.bad("write", text, errJSONAnswer, usage)
	}
	ans := graphrag.Answer{By: "llm", Usage: usage}
	ans.Text, ans.Citations = cite(text, req)
	ans.Abstained = strings.Contains(strings.ToLower(ans.Text), strings.ToLower(strings.TrimSuffix(NoAnswer, ".")))
	return ans, nil
}

func directPrompt(req graphrag.WriteRequest, historyTurns int) string {
	var b strings.Builder
	if h := lastTurns(req.History, historyTurns); len(h) > 0 {
		b.WriteString("Conversation so far:\n")
		writeHistory(&b, h)
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "Question: %s\n\nAnswer briefly. If you do not know, say so.\n\nAnswer:", req.Query)
	return b.String()
}

var citeRe = regexp.MustCompile(`[ \t]?\[(\d+(?:\s*[,;]\s*\d+)*)\]`)

// cite maps the [n] markers of text to req.Hits, removing markers that
// point nowhere.
func cite(text string, req graphrag.WriteRequest) (string, []graphrag.Citation) {
	var cites []graphrag.Citation
	add := func(n int) {
		for _, c := range cites {
			if c.N == n {
				return
			}
		}
		h := req.Hits[n-1]
		quote := ""
		for _, f := range req.Facts {
			if f.Hit == n-1 {
				quote = f.Text
				break
			}
		}
		if quote == "" {
			quote = clip(oneLine(h.Chunk.Text), 200)
		}
		cites = append(cites, graphrag.Citation{N: n, Hit: h, Quote: quote})
	}
	out := citeRe.ReplaceAllStringFunc(text, func(m string) string {
		var keep []string
		all := intRe.FindAllString(m, -1)
		for _, s := range all {
			n, _ := strconv.Atoi(s)
			if n >= 1 && n <= len(req.Hits) {
				add(n)
				keep = append(keep, s)
			}
		}
		if len(keep) == 0 {
			return ""
		}
		if len(keep) == len(all) {
			return m
		}
		lead := ""
		if m[0] == ' ' || m[0] == '\t' {
			lead = m[:1]
		}
		return lead + "[" + strings.Join(keep, ", ") + "]"
	})
	slices.SortStableFunc(cites, func(a, b graphrag.Citation) int { return a.N - b.N })
	return out, cites
}

// Judge decides whether an answer is grounded and on the question (nodes.Judge).
type Judge struct {
	chat *chat
	cfg  Config
}

// Judge asks the decision model for a verdict on answer given hits.
func (j *Judge) Judge(ctx context.Context, query string, answer graphrag.Answer, hits []graphrag.Hit) (graphrag.Judgement, error) {
	shown := hits
	if len(shown) > j.cfg.GradeMaxChunks {
		shown = shown[:j.cfg.GradeMaxChunks]
	}
	text, usage, err := j.chat.generate(ctx, request{op: "judge", system: systemDecide, user: judgePrompt(query, answer.Text, shown, j.cfg.GradeChunkChars), schema: verdictSchema, maxToken: judgeTokens})
	if err != nil {
		return graphrag.Judgement{}, err
	}
	v, err := ParseVerdict(text)
	if err != nil {
		return graphrag.Judgement{}, j.chat.bad("judge", text, err, usage)
	}
	reason := "llm judge"
	if v.Reason != "" {
		reason += ": " + clip(v.Reason, 200)
	}
	return graphrag.Judgement{Verdict: v.GraphVerdict(), Reason: reason, By: "llm", Usage: usage}, nil
}

// bad wraps a parse failure as an *Error of kind ErrBadOutput.
func (c *chat) bad(op, text string, err error, usage graphrag.Usage) error {
	return &Error{Op: op, Model: c.spec.String(), Kind: ErrBadOutput, Err: err, Output: clip(strings.TrimSpace(text), 120), Usage: usage}
}

// thinkFilter drops <think>...</think> blocks from a token stream.
type thinkFilter struct {
	emit    func(string)
	in      bool
	pending string
}

const thinkOpen, thinkClose = "<think>", "</think>"

func (f *thinkFilter) write(s string) {
	f.pending += s
	for {
		if f.in {
			i := strings.Index(f.pending, thinkClose)
			if i < 0 {
				f.pending = keepPartial(f.pending, thinkClose)
				return
			}
			f.pending = strings.TrimLeft(f.pending[i+len(thinkClose):], " \n")
			f.in = false
			continue
		}
		if i := strings.Index(f.pending, thinkOpen); i >= 0 {
			f.out(f.pending[:i])
			f.pending = f.pending[i+len(thinkOpen):]
			f.in = true
			continue
		}
		k := len(keepPartial(f.pending, thinkOpen))
		f.out(f.pending[:len(f.pending)-k])
		f.pending = f.pending[len(f.pending)-k:]
		return
	}
}

func (f *thinkFilter) flush() {
	if !f.in {
		f.out(f.pending)
	}
	f.pending = ""
}

func (f *thinkFilter) out(s string) {
	if s != "" {
		f.emit(s)
	}
}

// keepPartial returns the longest suffix of s that is a proper prefix of tag.
func keepPartial(s, tag string) string {
	for k := min(len(tag)-1, len(s)); k > 0; k-- {
		if strings.HasSuffix(s, tag[:k]) {
			return s[len(s)-k:]
		}
	}
	return ""
}
