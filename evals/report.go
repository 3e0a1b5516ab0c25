package evals

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// Score is a figure in a report. It is written to JSON with four decimals,
// so the same run always produces the same bytes.
type Score float64

// MarshalJSON writes s with four decimals (NaN and infinities as 0).
func (s Score) MarshalJSON() ([]byte, error) {
	f := float64(s)
	if math.IsNaN(f) || math.IsInf(f, 0) {
		f = 0
	}
	return []byte(strconv.FormatFloat(f, 'f', 4, 64)), nil
}

// Report is the result of one eval run. A routing run fills Routing; a RAG
// run fills the other sections. With several variants (ablation), the
// top-level sections are the first variant's and Variants holds every
// variant, the first included, in the order they were given.
type Report struct {
	// Variant names the configuration this report scores ("" for a plain run).
	Variant string `json:"variant,omitempty"`

	Routing *RoutingReport `json:"routing,omitempty"`

	Retrieval *RetrievalScores `json:"retrieval,omitempty"`
	Answers   *AnswerScores    `json:"answers,omitempty"`
	Rejection *RejectionScores `json:"rejection,omitempty"`
	// Grounding is the mean Answer.Grounding over answered questions.
	Grounding *Score `json:"grounding,omitempty"`
	// LatencyMS is per node, plus "total" for a whole run of the graph
	// (RAG) or one routing decision (routing).
	LatencyMS map[string]Latency `json:"latency_ms,omitempty"`
	// LLMCallsPerQuery and TokensPerQuery average State.Usage over every
	// question run (answerable and negative).
	LLMCallsPerQuery *Score `json:"llm_calls_per_query,omitempty"`
	TokensPerQuery   *Score `json:"tokens_per_query,omitempty"`
	Loops            *Loops `json:"loops,omitempty"`
	// Model is how the run used its language model; nil when it made no
	// model call.
	Model *ModelScores `json:"model,omitempty"`
	// Routes counts the route each answerable question last took (a
	// question sent to web or direct cannot retrieve its gold passages).
	Routes map[string]int `json:"routes,omitempty"`
	// SearchModes counts the modes the store actually ran (a store with no
	// embedder answers vector and hybrid queries with keyword search).
	SearchModes map[string]int `json:"search_modes,omitempty"`
	// Misses are answerable questions whose gold passages were not all in
	// the top k, or that were abstained on, in dataset order (at most 50).
	Misses []Miss `json:"misses,omitempty"`
	// Errors counts queries whose run failed; they score as misses.
	Errors int `json:"errors"`

	Variants []Report `json:"variants,omitempty"`
	// Skipped lists dataset rows that could not be read.
	Skipped []RowError `json:"skipped_rows,omitempty"`
	// Notes say what a reader must know to read the figures right.
	Notes []string `json:"notes,omitempty"`
	// Failures lists the first few failed queries with their errors.
	Failures []string `json:"failures,omitempty"`
}

// RoutingReport scores a router.
type RoutingReport struct {
	// N counts rows with a fine label (every route but Local).
	N        int   `json:"n"`
	Accuracy Score `json:"accuracy"`
	MacroF1  Score `json:"macro_f1"`
	// CoarseN counts every row, Local ones included.
	CoarseN        int   `json:"coarse_n"`
	CoarseAccuracy Score `json:"coarse_accuracy"`
	CoarseMacroF1  Score `json:"coarse_macro_f1"`
	// Hard scores the rows labelled hard.
	Hard      RoutingSubset             `json:"hard"`
	PerClass  map[string]ClassScore     `json:"per_class"`
	Confusion map[string]map[string]int `json:"confusion"`
	// CoarseConfusion is over every row, with vector and hybrid as local.
	CoarseConfusion map[string]map[string]int `json:"coarse_confusion"`
	// Deciders counts Plan.By: which router (rules, learned, probe, llm...) decided.
	Deciders map[string]int `json:"deciders"`
	// Fallbacks counts decisions whose decider says it fell back.
	Fallbacks int `json:"fallbacks"`
	// ECE is the expected calibration error of Plan.Confidence against
	// coarse correctness, over 10 equal-width confidence bins.
	ECE Score `json:"ece"`
	// CV is the cross-validation run (--cv source), when asked for.
	CV *RoutingCV `json:"cv,omitempty"`
	// Mistakes are the misrouted rows, in dataset order.
	Mistakes []Mistake `json:"mistakes,omitempty"`
}

// RoutingCV is a leave-one-source-out run: for each source of the router's
// training data, a router trained without it scored on every one of its
// rows. Each fold gives three figures (CVScores); Router, Policy and
// Classifier are their means and worst folds.
type RoutingCV struct {
	By    string   `json:"by"`
	Folds []CVFold `json:"folds"`
	// Router summarises CVScores.CoarseAccuracy: the whole router against
	// the route of each row's class. It is the figure this run reported
	// before Policy and Classifier were added.
	Router CVSummary `json:"router"`
	// Policy summarises CVScores.PolicyAccuracy: the whole router against
	// what the policy prescribes in the configuration it runs in.
	Policy CVSummary `json:"policy"`
	// Classifier summarises CVScores.ClassifierAccuracy: the learned
	// classifier alone.
	Classifier CVSummary `json:"classifier"`
	// SeenMean is the mean of the folds' SeenAccuracy.
	SeenMean Score `json:"seen_mean"`
	// Dev scores the evaluation rows themselves, source by source: a
	// row whose source has training data of its own (CLINC150's test
	// rows, NL2Bash's, graphrag's own) is routed by the router trained
	// without that training source; a source with none (TREC, HotpotQA,
	// XQuAD) is left out of training already and is routed by the shipped
	// router. DevRouter is the mean over those sources and the worst.
	// DevWithModel is the same with a language model configured, as the
	// rows' labels assume: with none, a general-knowledge question ("who
	// invented the telephone", labelled direct) searches the files first
	// (routerdata/policy.json).
	Dev          []CVDevSource `json:"dev,omitempty"`
	DevRouter    CVSummary     `json:"dev_router"`
	DevWithModel CVSummary     `json:"dev_with_model"`
}

// CVDevSource is one source of evaluation rows in a leave-one-source-out
// run: which training source was left out for it ("" when none matches)
// and the whole router's coarse accuracy on its rows.
type CVDevSource struct {
	Source         string `json:"source"`
	Without        string `json:"without,omitempty"`
	Rows           int    `json:"rows"`
	CoarseAccuracy Score  `json:"coarse_accuracy"`
	// WithModel is CoarseAccuracy with a language model configured.
	WithModel Score `json:"with_model"`
}

// CVSummary is one figure's mean over the folds and its worst fold.
type CVSummary struct {
	Mean        Score  `json:"mean"`
	Worst       Score  `json:"worst"`
	WorstSource string `json:"worst_source"`
}

// CVScores are the figures of a fold or of one class in it, each the share
// of its rows scored right, coarse (vector and hybrid as local).
type CVScores struct {
	// CoarseAccuracy scores the whole router (rules, cues, the probe over
	// the store, the overrides that apply when no language model is
	// configured) against the route of the row's class (classRoute), as
	// if every service were configured.
	CoarseAccuracy Score `json:"coarse_accuracy"`
	// PolicyAccuracy scores the whole router against the route the policy
	// prescribes for the row's class in the configuration the run uses
	// (nodes.PolicyRoute): without a language model, a general-knowledge
	// question searches the files unless they hold little about it.
	PolicyAccuracy Score `json:"policy_accuracy"`
	// ClassifierAccuracy scores the learned classifier alone
	// (nodes.RouterModel.Classify: no rule, cue or probe): its likeliest
	// route against the route of the row's class. This is what "trained
	// without a source, scored on it" measures of a trained model.
	ClassifierAccuracy Score `json:"classifier_accuracy"`
	// ClassAccuracy is the classifier's class against the row's class:
	// stricter than ClassifierAccuracy, since direct, general and action
	// all route direct.
	ClassAccuracy Score `json:"class_accuracy"`
}

// CVFold is one left-out source.
type CVFold struct {
	Source string `json:"source"`
	Rows   int    `json:"rows"`
	CVScores
	// SeenAccuracy is the reference for ClassifierAccuracy: the classifier
	// trained on every source with every tenth row of this one held out,
	// scored (coarse) on those rows. The gap between the two is what the
	// source's own wording teaches that the other sources do not.
	SeenAccuracy Score `json:"seen_accuracy"`
	// Classes scores the fold's rows by the policy class of their intent
	// (direct, general, action, web, filesystem, local): a class that only
	// the left-out source words a certain way shows here.
	Classes []CVClass `json:"classes,omitempty"`
}

// CVClass is one policy class of a left-out source's rows.
type CVClass struct {
	Class string `json:"class"`
	Rows  int    `json:"rows"`
	CVScores
	// Routed counts where the router sent the rows (coarse routes).
	Routed map[string]int `json:"routed"`
	// Classified counts the classifier's classes for the rows.
	Classified map[string]int `json:"classified"`
}

// RoutingSubset is a slice of the routing rows scored on its own.
type RoutingSubset struct {
	N              int   `json:"n"`
	Accuracy       Score `json:"accuracy"`
	MacroF1        Score `json:"macro_f1"`
	CoarseN        int   `json:"coarse_n"`
	CoarseAccuracy Score `json:"coarse_accuracy"`
}

// Mistake is a misrouted row.
type Mistake struct {
	ID     string `json:"id"`
	Query  string `json:"query"`
	Want   string `json:"want"`
	Got    string `json:"got"`
	By     string `json:"by,omitempty"`
	Reason string `json:"reason,omitempty"`
	Coarse bool   `json:"coarse_wrong"`
}

// Miss is an answerable question the run did not fully serve.
type Miss struct {
	QID      string `json:"qid"`
	Question string `json:"question"`
	Type     string `json:"type"`
	Route    string `json:"route,omitempty"`
	// Missing are the gold passages not in the top k.
	Missing []string `json:"missing,omitempty"`
	// FirstGold is the rank of the first gold passage, 0 when none was found.
	FirstGold int  `json:"first_gold"`
	Abstained bool `json:"abstained"`
}

// RetrievalScores are averaged over answerable questions. K is the cutoff
// of recall and both-gold; nDCG is always at 10.
type RetrievalScores struct {
	K        int   `json:"-"`
	N        int   `json:"-"`
	Recall   Score `json:"-"`
	BothGold Score `json:"-"`
	MRR      Score `json:"-"`
	NDCG10   Score `json:"-"`
	// ByType holds the same scores per question type.
	ByType map[string]*RetrievalScores `json:"-"`
}

// MarshalJSON names the cutoff in the keys: "recall@10", "both_gold@10".
func (r RetrievalScores) MarshalJSON() ([]byte, error) {
	m := map[string]any{
		"k": r.K, "n": r.N, "mrr": r.MRR, "ndcg@10": r.NDCG10,
		"recall@" + strconv.Itoa(r.K): r.Recall, "both_gold@" + strconv.Itoa(r.K): r.BothGold,
	}
	if len(r.ByType) > 0 {
		m["by_type"] = r.ByType
	}
	return json.Marshal(m)
}

// UnmarshalJSON reads what MarshalJSON writes.
func (r *RetrievalScores) UnmarshalJSON(b []byte) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	num := func(key string) float64 {
		var f float64
		json.Unmarshal(m[key], &f)
		return f
	}
	r.K, r.N = int(num("k")), int(num("n"))
	r.MRR, r.NDCG10 = Score(num("mrr")), Score(num("ndcg@10"))
	r.Recall = Score(num("recall@" + strconv.Itoa(r.K)))
	r.BothGold = Score(num("both_gold@" + strconv.Itoa(r.K)))
	if raw, ok := m["by_type"]; ok {
		return json.Unmarshal(raw, &r.ByType)
	}
	return nil
}

// AnswerScores are SQuAD exact match and token F1 of the answer text,
// averaged over answerable questions, overall and per question type.
//
// EM and F1 (JSON em, f1; gate names answers.em, answers.f1) score the
// cited answer text, the answer a user reads: an abstention scores 0.
// ShortEM and ShortF1 score nodes.State.Short, the heuristic short answer
// (a name, date, number, yes or no) the graph extracts for exact-match
// scoring; a run without one scores 0 there.
type AnswerScores struct {
	N  int   `json:"n"`
	EM Score `json:"em"`
	F1 Score `json:"f1"`
	// ShortEM and ShortF1 score State.Short; Shorts is how many runs had
	// a short answer.
	ShortEM Score `json:"short_em"`
	ShortF1 Score `json:"short_f1"`
	Shorts  int   `json:"shorts"`
	// Contains is the share of answers that contain a gold answer.
	Contains Score `json:"contains"`
	// SpanF1 is the mean of the best F1 of any short span of the answer
	// (an oracle upper bound for a short-answer extractor).
	SpanF1 Score                   `json:"span_f1"`
	ByType map[string]AnswerScores `json:"by_type,omitempty"`
}

// ModelScores describe a run with a language model: its answers scored
// on the short answer its sentences state, and what the model cost.
type ModelScores struct {
	// ExtractedEM and ExtractedF1 score the short answer ExtractShort reads
	// from each answerable question's answer text ("The answer is X [1]."
	// → X); an abstention scores 0.
	ExtractedEM Score `json:"extracted_em"`
	ExtractedF1 Score `json:"extracted_f1"`
	// CallsMean and CallsP95 are model calls per question (answerable and
	// negative); CallsMax the most any took.
	CallsMean Score `json:"calls_mean"`
	CallsP95  Score `json:"calls_p95"`
	CallsMax  int   `json:"calls_max"`
	// ValidateLoops is the mean of validate's back-edges per question;
	// NoValidateLoop the share of questions that took none on a rejected
	// answer. FilesFallbacks is the mean of the back-edges that searched
	// the files because the model had no answer to a question it was to
	// answer alone (counted in ValidateLoops, not against NoValidateLoop).
	ValidateLoops  Score `json:"validate_loops"`
	NoValidateLoop Score `json:"no_validate_loop"`
	FilesFallbacks Score `json:"files_fallbacks"`
	// LowConfidence is the share of answered answerable questions whose
	// answer is flagged low confidence.
	LowConfidence Score `json:"low_confidence"`
	// By counts the answers of every question by who wrote them
	// (Answer.By: "llm", "extractive", "abstain"...).
	By map[string]int `json:"by,omitempty"`
}

// RejectionScores set abstention on unanswerable questions next to false
// abstention on answerable ones.
type RejectionScores struct {
	Negatives        int   `json:"negatives"`
	AbstainRate      Score `json:"abstain_rate"`
	Answerable       int   `json:"answerable"`
	FalseAbstainRate Score `json:"false_abstain_rate"`
}

// Latency summarises durations in milliseconds.
type Latency struct {
	N    int   `json:"n"`
	P50  Score `json:"p50"`
	P95  Score `json:"p95"`
	Mean Score `json:"mean"`
}

// Loops is the distribution of back-edges taken.
type Loops struct {
	// Edges counts every back-edge ("evaluate->route") over all runs.
	Edges map[string]int `json:"edges"`
	// PerQuery counts runs by how many back-edges they took ("0", "1"...).
	PerQuery map[string]int `json:"per_query"`
	// Stops counts why runs ended (State.Stop), "" as "done".
	Stops map[string]int `json:"stops,omitempty"`
}

// LatencyOf summarises durations given in milliseconds.
func LatencyOf(ms []float64) Latency {
	return Latency{N: len(ms), P50: Score(Percentile(ms, 50)), P95: Score(Percentile(ms, 95)), Mean: Score(Mean(ms))}
}

// WriteJSON writes r as indented JSON with sorted keys and fixed decimals.
func WriteJSON(w io.Writer, r *Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(r); err != nil {
		return fmt.Errorf("write report JSON: %w", err)
	}
	return nil
}

// ReadJSON reads a report written by WriteJSON (for Compare).
func ReadJSON(r io.Reader) (*Report, error) {
	var rep Report
	if err := json.NewDecoder(r).Decode(&rep); err != nil {
		return nil, fmt.Errorf("read report JSON: %w", err)
	}
	return &rep, nil
}

func ptr[T any](v T) *T { return &v }

func title(s string) string {
	if s == "" {
		return "default"
	}
	return strings.TrimSpace(s)
}
