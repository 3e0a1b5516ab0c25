package nodes

import "time"

// Options tune the RAG graph. Start from DefaultOptions: its thresholds
// were tuned on the development data in ../shared/evaldata.
type Options struct {
	// K is how many hits retrieve asks for.
	K int
	// Budget is the retries per back-edge a run starts with.
	Budget Budget
	// MaxSteps caps the engine's steps per run (graph.WithMaxSteps).
	MaxSteps int

	// ProbeK is how many hits route's keyword probe asks for; 0 turns the
	// probe off.
	ProbeK int
	// StrongEvidence is the probe strength at which a query stays local
	// even when the classifier says direct; WeakEvidence the strength
	// under which a local-looking query has no local answer and goes to
	// the web or direct. MinSpecific is the matched weight of names and rare
	// words strong evidence needs.
	StrongEvidence, WeakEvidence, MinSpecific float64
	// Router picks the deterministic deciders route uses (for ablations):
	// RouterFull (the default), RouterRules or RouterLearned.
	Router RouterMode
	// RouterModel, when set, replaces the shipped learned router.
	RouterModel *RouterModel
	// PlannerBelow: the Planner is asked exactly when the route's
	// calibrated confidence (Plan.Confidence) is below this.
	PlannerBelow float64
	// MaxQueries caps the texts a local search runs: Plan.Query and the
	// planner's other wordings (Plan.Queries), each one or two branches
	// of retrieve, fused by reciprocal rank fusion. 1 searches Plan.Query
	// alone; 0 or less takes the default, maxQueries.
	MaxQueries int

	// KeepRatio drops hits scoring below this share of the top score
	// (keyword and vector scores). On the dev questions with BM25, 0.7 keeps
	// as much of the retrieved gold as 0.4 with a third fewer hits; the
	// original design's 0.85 loses gold (see TestKeepRatioDev).
	// KeepRatioFused is for RRF scores, 1/(60+rank) summed over the lists:
	// a hit first in both lists scores 2/61, first in one list only half
	// that, tenth in both 0.87 of it. 0.45 keeps what ranks in the top 7 of
	// at least one list and drops what only one list found deep down.
	// MaxKept caps the kept hits; the search's best hit is read besides
	// when a question's names order others before it (see preferHits).
	KeepRatio, KeepRatioFused float64
	MaxKept                   int
	// GoodEvidence and EmptyEvidence bound evaluate's judgement: at or above
	// GoodEvidence retrieval is good, below EmptyEvidence (or with too
	// little specific match) it is empty, in between poor.
	GoodEvidence, EmptyEvidence float64
	// AbstainBelow: when the retrieve budget is spent and retrieval is
	// still poor, a run whose evidence is under it abstains rather than
	// answer from passages that do not match the question, unless one
	// passage holds at least OnePassage of the question's weight
	// (Evidence.Top): the question's own words are spread over passages
	// that each say a little of them ("how deep is Lake Zorp" over pages
	// that say "deep", "lake" and "Zorp" apart), or one passage says what
	// the question asks about in other words than its asker ("what does
	// the frobnicate script really do behind the scenes"). Half: most of
	// what the question asks, in one place.
	AbstainBelow, OnePassage float64
	// ExpansionTerms is how many pseudo-relevance-feedback terms a refined
	// query gains.
	ExpansionTerms int

	// MaxSentences caps the extractive answer.
	MaxSentences int
	// LowConfidence flags answers whose grounding is under it;
	// MinCoverage sends answers covering less of the query's keywords back
	// to route. JudgeBand: a Judge is asked only when grounding is within
	// this distance of LowConfidence.
	LowConfidence, MinCoverage, JudgeBand float64

	// ConfirmWeb pauses a run before its question is sent to the web
	// search (Deps.Web): retrieve's web branch interrupts with a
	// WebConfirmation and the caller resumes with true or false. Only a run
	// with a thread on a graph built with a checkpointer can pause; see
	// confirmweb.go.
	ConfirmWeb bool

	// Now is used when Deps.Now is nil.
	Now func() time.Time
}

// RouterMode selects the deterministic deciders of the route node.
type RouterMode string

const (
	// RouterFull: rules, then the learned classifier joined by the probe.
	RouterFull RouterMode = ""
	// RouterRules: rules, then the probe alone (local when the files have
	// evidence, direct otherwise): the plain regex router baseline.
	RouterRules RouterMode = "rules"
	// RouterLearned: the classifier joined by the probe, no rules.
	RouterLearned RouterMode = "learned"
)

// plannerBelow is the default PlannerBelow. The router's confidence is
// calibrated (temperature fitted on held-out training rows; its expected
// calibration error is in `graphrag eval routing`), so below 0.6 the
// deterministic route is wrong at least about two times in five: worth a
// model call.
const plannerBelow = 0.6

// maxQueries is the default MaxQueries: the question and the three other
// wordings the llm planner may propose (LangChain's MultiQueryRetriever
// asks for three; RAG-Fusion searches four queries). On a store with
// hybrid legs that is at most 8 concurrent store searches per retrieve,
// within graph.DefaultParallelism (16) and the subgraph's step limit
// (graph.DefaultMaxSteps, 25: select, 8 branches and fuse take 10). Not
// tuned: no eval measures the model path's rephrasings yet.
const maxQueries = 4

// DefaultOptions returns the tuned defaults.
func DefaultOptions() Options {
	return Options{
		K:              10,
		Budget:         Budget{Retrieve: 2, Generate: 2, Route: 2},
		MaxSteps:       40,
		ProbeK:         5,
		StrongEvidence: 0.75,
		WeakEvidence:   0.45,
		MinSpecific:    2,
		PlannerBelow:   plannerBelow,
		MaxQueries:     maxQueries,
		KeepRatio:      0.7,
		KeepRatioFused: 0.45,
		MaxKept:        5,
		GoodEvidence:   0.7,
		EmptyEvidence:  0.55,
		AbstainBelow:   0.65,
		OnePassage:     0.5,
		ExpansionTerms: 4,
		MaxSentences:   3,
		LowConfidence:  0.4,
		MinCoverage:    0.34,
		JudgeBand:      0.15,
		Now:            time.Now,
	}
}
