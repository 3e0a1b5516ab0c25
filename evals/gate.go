package evals

import (
	"fmt"
	"strconv"
	"strings"
)

// Gate is a threshold on one metric (a name from Report.Metrics). The CLI
// turns --min-accuracy 0.9 into Min("routing.accuracy", 0.9) and so on.
type Gate struct {
	Metric string
	// Max makes Value an upper bound; otherwise it is a lower bound.
	Max   bool
	Value float64
}

// Min is a gate that fails when metric is below v.
func Min(metric string, v float64) Gate { return Gate{Metric: metric, Value: v} }

// Max is a gate that fails when metric is above v.
func Max(metric string, v float64) Gate { return Gate{Metric: metric, Max: true, Value: v} }

// ParseGate reads "metric>=value" or "metric<=value", e.g.
// "retrieval.mrr>=0.9".
func ParseGate(s string) (Gate, error) {
	for _, op := range []string{">=", "<="} {
		name, val, ok := strings.Cut(s, op)
		if !ok {
			continue
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(val), 64)
		if err != nil || strings.TrimSpace(name) == "" {
			break
		}
		return Gate{Metric: strings.TrimSpace(name), Max: op == "<=", Value: v}, nil
	}
	return Gate{}, fmt.Errorf("gate %q: want METRIC>=VALUE or METRIC<=VALUE, e.g. retrieval.mrr>=0.9", s)
}

func (g Gate) String() string {
	op := ">="
	if g.Max {
		op = "<="
	}
	return fmt.Sprintf("%s%s%.4f", g.Metric, op, g.Value)
}

// Failure is a gate a report did not pass.
type Failure struct {
	Gate Gate
	// Got is the measured value; Missing says the report has no such metric.
	Got     float64
	Missing bool
}

func (f Failure) String() string {
	if f.Missing {
		return fmt.Sprintf("%s: not measured by this run (known metrics: see Report.MetricNames)", f.Gate.Metric)
	}
	if f.Gate.Max {
		return fmt.Sprintf("%s = %.4f, above the maximum %.4f", f.Gate.Metric, f.Got, f.Gate.Value)
	}
	return fmt.Sprintf("%s = %.4f, below the minimum %.4f", f.Gate.Metric, f.Got, f.Gate.Value)
}

// Check returns the gates r fails, in the order given; none means pass.
// Gates apply to the top-level figures (the first variant of an ablation).
func Check(r *Report, gates ...Gate) []Failure {
	m := r.Metrics()
	var fails []Failure
	for _, g := range gates {
		v, ok := m[g.Metric]
		switch {
		case !ok:
			fails = append(fails, Failure{Gate: g, Missing: true})
		case g.Max && v > g.Value, !g.Max && v < g.Value:
			fails = append(fails, Failure{Gate: g, Got: v})
		}
	}
	return fails
}
