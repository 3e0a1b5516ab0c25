package nodes

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/graph"
)

// Budget counts retries per back-edge of the graph.
type Budget struct {
	// Retrieve: evaluate → route, refining the query after poor retrieval.
	Retrieve int
	// Generate: validate → generate, rewriting an unsupported answer.
	Generate int
	// Route: validate → route, planning again for an off-question answer.
	Route int
}

// Judgement labels for retrieval, set by evaluate.
const (
	RetrievalGood  = "good"
	RetrievalPoor  = "poor"
	RetrievalEmpty = "empty"
)

// State is what flows through the RAG graph. Each node takes it by value
// and returns the updated copy.
type State struct {
	// Query is the user's question; History the conversation before it.
	Query   string
	History []graphrag.Turn
	// Resolved is the question as route understood it: Query joined with
	// the previous question when Query is a follow-up ("and when was he
	// born?"), otherwise empty. Evaluate, generate and validate measure
	// against it.
	Resolved string
	// Plan is route's decision; Plan.Query is the text retrieve searches with.
	Plan graphrag.Plan
	// Probe is the evidence route's retrieval probe measured (zero when no
	// probe ran).
	Probe Evidence
	// Hits are what retrieve found, best first.
	Hits []graphrag.Hit
	// SearchMode and SearchNote are what the store reported it ran.
	SearchMode graphrag.SearchMode
	SearchNote string
	// WebDeclined is set when the user declined to send the question to
	// the web (Options.ConfirmWeb): the run searched the local files
	// instead, and a later web route in the run does too without asking.
	WebDeclined bool
	// Alone is the direct route's answer to a general-knowledge question
	// no language model could answer, after which the files were
	// searched: the run gives it when they hold no answer either.
	Alone graphrag.Answer
	// ToolText is the answer a tool gave (filesystem, or a route whose
	// capability is not configured); generate returns it as the answer.
	ToolText string
	// Kept are the hits evaluate kept, numbered [1..n] for citations.
	Kept []graphrag.Hit
	// Evidence holds facts evaluate took from the kept hits.
	Evidence []graphrag.Fact
	// Retrieval is evaluate's judgement: RetrievalGood, Poor or Empty;
	// Measured says what it measured to judge so.
	Retrieval string
	Measured  string
	// Strength is the evidence strength evaluate measured for Kept.
	Strength float64
	// Refined is the query the next route visit searches with after a
	// corrective loop; empty on the first pass.
	Refined string
	// Answer is generate's answer; Verdict is validate's judgement of it.
	Answer  graphrag.Answer
	Verdict graphrag.Verdict
	// Check is what validate measured of Answer; Judged is the judge's
	// reason when it was asked ("" when not).
	Check  Check
	Judged string
	// Short is a short answer (a name, date, number, yes or no) extracted
	// from the kept hits for exact-match scoring; "" when none was found
	// or the run abstained. The cited Answer remains the answer.
	Short string
	// Best is the best answer seen so far, returned when a budget runs out.
	Best graphrag.Answer
	// Budget holds the retries left per back-edge; a run that starts with
	// the zero Budget takes Options.Budget. Loops counts the retries taken.
	Budget Budget
	Loops  Budget
	// Notes record why the run ended as it did and every fallback that fired.
	Notes []string
	// Stop says why the run ended: "answered", "abstained", or which budget
	// ran out.
	Stop string
	// Usage is language-model work per node name.
	Usage map[string]graphrag.Usage

	started bool
	// modelDown is set after a model call failed with an unreachable
	// server: the run makes no more model calls.
	modelDown bool
	// bestHits/bestStrength remember the best retrieval across corrective
	// loops, so a worse refined search never replaces a better first one.
	bestHits     []graphrag.Hit
	bestStrength float64
	bestMode     graphrag.SearchMode
	// fused is true when Hits carry RRF scores from a corrective loop or
	// from the lists of several queries (retrieval.Fused).
	fused, bestFused bool
}

// question is what the nodes answer: Resolved, or Query.
func (s *State) question() string {
	if s.Resolved != "" {
		return s.Resolved
	}
	return s.Query
}

func (s *State) note(format string, args ...any) {
	s.Notes = append(s.Notes, fmt.Sprintf(format, args...))
}

// fallback records a fallback note and emits it as the custom graph event
// "fallback" (counted by the server's graphrag_fallbacks_total).
func (s *State) fallback(ctx context.Context, format string, args ...any) {
	s.note(format, args...)
	graph.Emit(ctx, EventFallback, s.Notes[len(s.Notes)-1])
}

// EventFallback names the custom graph event a node emits, with the note as
// its payload, each time it falls back (a model call failed, a filter
// matched nothing...).
const EventFallback = "fallback"

// msgModelDown is noted once when the language model server is unreachable.
const msgModelDown = "language model unreachable: finished extractively"

// modelFailed records a failed model call: a fallback note, or, when the
// server is unreachable, the one note that the run goes on without models.
func (s *State) modelFailed(ctx context.Context, err error, format string, args ...any) {
	if errors.Is(err, graphrag.ErrUnavailable) {
		if !s.modelDown {
			s.modelDown = true
			s.fallback(ctx, "%s (%v)", msgModelDown, err)
		}
		return
	}
	s.fallback(ctx, format, args...)
}

func (s *State) addUsage(node string, u graphrag.Usage) {
	if u == (graphrag.Usage{}) {
		return
	}
	if s.Usage == nil {
		s.Usage = make(map[string]graphrag.Usage)
	} else {
		// Copy on write: states are values and a map would be shared.
		m := make(map[string]graphrag.Usage, len(s.Usage)+1)
		for k, v := range s.Usage {
			m[k] = v
		}
		s.Usage = m
	}
	s.Usage[node] = s.Usage[node].Add(u)
}

// StateVersion is the schema version of State's JSON, which checkpoints
// store (graph.WithStateVersion). Bump it, with a migration, when a field
// is renamed or retyped; added fields need no bump.
const StateVersion = 1

// stateFields is State without its methods, so that encoding it does not
// recurse into MarshalJSON.
type stateFields State

// internalState is what the nodes keep to themselves across steps. A
// checkpointed run that resumes must get it back, or it would forget that
// the run started (and take its budget again), that the model server is
// down, or which retrieval was the best so far.
type internalState struct {
	Started      bool                `json:"started"`
	ModelDown    bool                `json:"model_down"`
	BestHits     []graphrag.Hit      `json:"best_hits"`
	BestStrength float64             `json:"best_strength"`
	BestMode     graphrag.SearchMode `json:"best_mode"`
	Fused        bool                `json:"fused"`
	BestFused    bool                `json:"best_fused"`
}

type stateJSON struct {
	stateFields
	Internal internalState `json:"internal"`
}

// MarshalJSON encodes the state as checkpoints keep it: the exported
// fields, and the nodes' own bookkeeping under "internal".
func (s State) MarshalJSON() ([]byte, error) {
	return json.Marshal(stateJSON{stateFields: stateFields(s), Internal: internalState{
		Started: s.started, ModelDown: s.modelDown,
		BestHits: s.bestHits, BestStrength: s.bestStrength, BestMode: s.bestMode,
		Fused: s.fused, BestFused: s.bestFused,
	}})
}

// UnmarshalJSON decodes what MarshalJSON encoded.
func (s *State) UnmarshalJSON(data []byte) error {
	var j stateJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	*s = State(j.stateFields)
	in := j.Internal
	s.started, s.modelDown = in.Started, in.ModelDown
	s.bestHits, s.bestStrength, s.bestMode = in.BestHits, in.BestStrength, in.BestMode
	s.fused, s.bestFused = in.Fused, in.BestFused
	return nil
}
