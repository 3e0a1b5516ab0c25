package nodes

import (
	"fmt"
	"slices"

	"github.com/graphrag/graphrag"
)

// RouterModel is a trained learned router. Options.RouterModel replaces the
// shipped one (routerdata/model.bin), e.g. to score a router trained
// without some of the data (`graphrag eval routing --cv source`).
type RouterModel struct{ c *classifier }

// TrainRouter trains a router on the embedded training data without the
// rows of the given sources (TrainingSources), exactly as `go generate
// ./nodes` trains the shipped one. It takes seconds.
func TrainRouter(exclude ...string) (*RouterModel, error) {
	rows, err := trainingExamples()
	if err != nil {
		return nil, err
	}
	var kept []example
	for _, r := range rows {
		if !slices.Contains(exclude, r.Source) {
			kept = append(kept, r)
		}
	}
	if len(kept) == 0 {
		return nil, fmt.Errorf("train router: no rows left without %v", exclude)
	}
	return &RouterModel{trainRouter(kept)}, nil
}

// TrainRouterSeen trains a router on every source with every n-th row of
// source held out, and returns it with the held-out rows: scored on them,
// it says how well the classifier does on a source's wording once it has
// seen that wording, the reference for the leave-one-source-out figure.
func TrainRouterSeen(source string, n int) (*RouterModel, []LabelledQuery, error) {
	if n < 2 {
		return nil, nil, fmt.Errorf("train router: hold out every %d-th row: want n >= 2", n)
	}
	if !slices.Contains(TrainingSources, source) {
		return nil, nil, fmt.Errorf("train router: no source %q (want one of %v)", source, TrainingSources)
	}
	rows, err := trainingExamples()
	if err != nil {
		return nil, nil, err
	}
	var kept []example
	var held []LabelledQuery
	i := 0
	for _, r := range rows {
		if r.Source == source {
			i++
			if i%n == 0 {
				held = append(held, labelled(r.trainingRow))
				continue
			}
		}
		kept = append(kept, r)
	}
	if len(held) == 0 {
		return nil, nil, fmt.Errorf("train router: source %q has fewer than %d rows", source, n)
	}
	return &RouterModel{trainRouter(kept)}, held, nil
}

// Classify is the learned classifier's own decision on a query, before any
// rule, cue or probe: the likeliest route (the class probabilities summed
// per route), the likeliest class of that route, and the class's calibrated
// probability. It is what the leave-one-source-out run scores as "the
// classifier alone".
func (m *RouterModel) Classify(query string) (route graphrag.Route, class string, prob float64) {
	p := m.c.predict(query)
	return p.Best, p.Class, p.ClassProb
}

// LabelledQuery is a training row with the route the policy gives it.
type LabelledQuery struct {
	Query string
	// Route is the policy's route: vector for the user's documents, direct
	// for computed answers, general knowledge and actions, web, filesystem.
	Route graphrag.Route
	// Intent is the row's label in the source data.
	Intent string
	// Class is the policy's class for the intent (direct, general,
	// action, web, filesystem, local).
	Class string
}

// TrainingRows returns the training rows of one source with their routes:
// what a router trained without that source is scored on.
func TrainingRows(source string) ([]LabelledQuery, error) {
	rows, err := loadTrainingRows()
	if err != nil {
		return nil, err
	}
	var out []LabelledQuery
	for _, r := range rows {
		if r.Source == source {
			out = append(out, labelled(r))
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("training rows: no source %q (want one of %v)", source, TrainingSources)
	}
	return out, nil
}

func labelled(r trainingRow) LabelledQuery {
	return LabelledQuery{Query: r.Query, Route: classRoute(r.Class), Intent: r.Intent, Class: r.Class}
}
