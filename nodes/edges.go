package nodes

import (
	"context"
	"fmt"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/graph"
)

// The graph's two conditional edges decide from what the nodes before
// them measured: pure functions of the state, tested with tables. A node
// that prepares a retry pays for it from its budget (evaluate and validate
// refine the query for route, validate rejects an answer for generate
// only while the generate budget lasts); the edge follows what the state
// says.

// afterEvaluate: a refined query waits → route; otherwise → generate
// (which abstains when retrieval was empty).
func afterEvaluate(s State) graph.Decision {
	spent := s.Budget.Retrieve == 0 && s.Loops.Retrieve > 0
	switch {
	case s.Refined != "":
		return graph.Decision{To: NodeRoute, Reason: fmt.Sprintf("%s: %s; refine the query (%d retries left)", s.Retrieval, s.Measured, s.Budget.Retrieve)}
	case s.Retrieval == RetrievalGood:
		return graph.Decision{To: NodeGenerate, Reason: "good: " + s.Measured}
	case s.Retrieval == RetrievalEmpty && spent:
		return graph.Decision{To: NodeGenerate, Reason: "empty: " + s.Measured + "; retrieve budget spent: abstain"}
	case s.Retrieval == RetrievalEmpty:
		return graph.Decision{To: NodeGenerate, Reason: "empty: " + s.Measured + "; nothing to refine from: abstain"}
	case spent:
		return graph.Decision{To: NodeGenerate, Reason: "poor: " + s.Measured + "; retrieve budget spent: answer from the best hits"}
	}
	return graph.Decision{To: NodeGenerate, Reason: "poor: " + s.Measured + "; no refinement possible: answer from the best hits"}
}

// afterValidate: an answer judged unsupported → generate (validate judged
// so only with generate budget left, else it answered from the passages);
// off the question with a refined query waiting → route; anything else
// ends the run.
func afterValidate(s State) graph.Decision {
	why := s.Check.String()
	if s.Check.Fallback != "" && s.Check.Kind == "" { // nothing was measured
		why = s.Check.Fallback
	}
	if s.Judged != "" {
		why += "; judge: " + s.Judged
	}
	switch {
	case s.Plan.Route == graphrag.RouteDirect && s.Refined != "" && s.Alone.Text != "":
		// No model to answer it alone: not a model's failure either.
		why := reasonSearchAlone
		if s.Alone.Text == msgCannotAct {
			why = reasonSearchHowTo
		}
		return graph.Decision{To: NodeRoute, Reason: fmt.Sprintf("%s (%d retries left)", why, s.Budget.Route)}
	case s.Plan.Route == graphrag.RouteDirect && s.Refined != "":
		// Not a rejected answer: the model had none for a question it was
		// to answer alone.
		return graph.Decision{To: NodeRoute, Reason: fmt.Sprintf("%s: %s (%d retries left)", ReasonSearchTheFiles, why, s.Budget.Route)}
	case s.Verdict == graphrag.VerdictOffQuestion && s.Refined != "":
		return graph.Decision{To: NodeRoute, Reason: fmt.Sprintf("off question: %s; plan again (%d retries left)", why, s.Budget.Route)}
	case s.Answer.Abstained:
		return graph.Decision{To: graph.END, Reason: "abstained: nothing relevant found"}
	case s.Verdict == graphrag.VerdictUnsupported:
		return graph.Decision{To: NodeGenerate, Reason: fmt.Sprintf("unsupported: %s; regenerate (%d retries left)", why, s.Budget.Generate)}
	case s.Check.Fallback != "":
		return graph.Decision{To: graph.END, Reason: why + "; " + s.Check.Fallback}
	case s.Plan.Route == graphrag.RouteDirect || s.ToolText != "":
		return graph.Decision{To: graph.END, Reason: string(s.Plan.Route) + " answer: nothing to check"}
	}
	return graph.Decision{To: graph.END, Reason: "ok: " + why}
}

// ReasonSearchTheFiles opens the reason of validate's back-edge to route
// when the model had no answer to a question it was to answer alone (it
// failed, or said it does not know): the files are searched, as without a
// model. It is a fallback, not a rejected answer; evals count it apart.
const ReasonSearchTheFiles = "no answer from the model: search the files"

// reasonSearchAlone is the reason of validate's back-edge to route when no
// language model could answer a general-knowledge question: the files are
// searched, and evaluate judges what they hold as for any question.
const reasonSearchAlone = "no model to answer it alone: search the files"

// reasonSearchHowTo is the reason of validate's back-edge to route for a
// request to act: graphrag cannot do it, the files may say how.
const reasonSearchHowTo = "a request to act, which graphrag cannot carry out: search the files for how to do it"

// router adapts a pure edge function to the engine.
func router(edge func(State) graph.Decision) graph.RouterFunc[State] {
	return func(_ context.Context, s State) (graph.Decision, error) { return edge(s), nil }
}
