package evals

import (
	"context"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/graphrag/graphrag/nodes"
)

func TestExpectedCalibrationError(t *testing.T) {
	tests := []struct {
		name    string
		conf    []float64
		correct []bool
		want    float64
	}{
		{"calibrated", []float64{0.75, 0.75, 0.75, 0.75}, []bool{true, true, true, false}, 0},
		{"overconfident", []float64{0.95, 0.95}, []bool{true, false}, 0.45},
		{"two bins", []float64{0.15, 0.95}, []bool{false, true}, 0.5*0.15 + 0.5*0.05},
		{"confidence 1 falls in the top bin", []float64{1}, []bool{true}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := expectedCalibrationError(tt.conf, tt.correct); math.Abs(got-tt.want) > 1e-9 {
				t.Errorf("ECE = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestRunRoutingRejectsUnknownCV(t *testing.T) {
	_, err := RunRouting(context.Background(), RoutingConfig{Rows: []RoutingRow{{ID: "r1", Query: "what is 2 plus 2", Route: "direct"}}, CV: "folds"})
	if err == nil || !strings.Contains(err.Error(), "unknown cross-validation") {
		t.Fatalf("err = %v, want an unknown cross-validation error", err)
	}
}

// TestCrossValidateByClass: each fold's rows are scored by the policy
// class of their intent, and the classes add up to the fold.
func TestCrossValidateByClass(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("-short or -race: training three routers takes seconds (minutes under the race detector)")
	}
	opts := nodes.DefaultOptions()
	opts.ProbeK = 0
	dev := []RoutingRow{
		{Query: "what is 12 times 7", Route: "direct", Source: "clinc150-test"},
		{Query: "how many files are in my downloads folder", Route: "filesystem", Source: "nl2bash(read-only find)"},
		{Query: "list the files in my documents folder", Route: "filesystem", Source: "nl2bash(read-only find)"},
		{Query: "what does my lease say about pets", Route: "vector", Source: "graphrag-authored"},
		{Query: "What is the capital of Peru?", Route: "direct", Source: "trec-qc TREC_10"},
	}
	cv, err := crossValidate(context.Background(), opts, nodes.Deps{Web: routeOnlyWeb{}}, GraphRouter, dev, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	wantDev := map[string]struct {
		without string
		rows    int
	}{"clinc150-test": {"clinc150", 1}, "nl2bash(read-only find)": {"nl2bash", 2}, "graphrag-authored": {"graphrag", 1}, "trec-qc TREC_10": {"", 1}}
	if len(cv.Dev) != len(wantDev) {
		t.Errorf("%d evaluation sources scored, want %d: %+v", len(cv.Dev), len(wantDev), cv.Dev)
	}
	var mean Score
	for _, d := range cv.Dev {
		if w := wantDev[d.Source]; d.Without != w.without || d.Rows != w.rows {
			t.Errorf("evaluation source %q: trained without %q on %d rows, want without %q, %d rows", d.Source, d.Without, d.Rows, w.without, w.rows)
		}
		mean += d.CoarseAccuracy / Score(len(cv.Dev))
	}
	if math.Abs(float64(mean-cv.DevRouter.Mean)) > 1e-9 || cv.DevRouter.WorstSource == "" {
		t.Errorf("dev summary %+v, want mean %.3f over the sources and a worst one", cv.DevRouter, mean)
	}
	if len(cv.Folds) != len(nodes.TrainingSources) {
		t.Fatalf("%d folds, want one per source (%v)", len(cv.Folds), nodes.TrainingSources)
	}
	for _, f := range cv.Folds {
		rows := 0
		var ok [4]float64
		for _, c := range f.Classes {
			for name, counts := range map[string]map[string]int{"routed": c.Routed, "classified": c.Classified} {
				n := 0
				for _, v := range counts {
					n += v
				}
				if n != c.Rows {
					t.Errorf("%s/%s: %d rows %s, want %d", f.Source, c.Class, n, name, c.Rows)
				}
			}
			rows += c.Rows
			for i, v := range cvScoreList(c.CVScores) {
				x, _ := strconv.ParseFloat(v, 64)
				ok[i] += x * float64(c.Rows)
			}
		}
		if rows != f.Rows {
			t.Errorf("%s: classes hold %d rows, the fold %d", f.Source, rows, f.Rows)
		}
		for i, v := range cvScoreList(f.CVScores) {
			x, _ := strconv.ParseFloat(v, 64)
			if math.Abs(ok[i]/float64(rows)-x) > 2e-3 {
				t.Errorf("%s: figure %d: classes hold %.3f, the fold %.3f", f.Source, i, ok[i]/float64(rows), x)
			}
		}
		// Without a store nothing is probed: the policy's route is the
		// class's route but for general knowledge, which without a model
		// and without evidence is answered directly, the class's route too.
		if f.PolicyAccuracy != f.CoarseAccuracy {
			t.Errorf("%s: without a store the policy figure %.3f should equal the class-route figure %.3f", f.Source, f.PolicyAccuracy, f.CoarseAccuracy)
		}
		if f.ClassAccuracy > f.ClassifierAccuracy {
			t.Errorf("%s: the classifier's class (%.3f) cannot be right more often than its route (%.3f)", f.Source, f.ClassAccuracy, f.ClassifierAccuracy)
		}
	}
	for _, f := range cv.Folds {
		if f.SeenAccuracy <= 0 || f.SeenAccuracy > 1 {
			t.Errorf("%s: seen-wording reference %.3f, want a share of the held-out rows", f.Source, f.SeenAccuracy)
		}
	}
	if cv.Router.WorstSource == "" || cv.Policy.Mean == 0 || cv.Classifier.Mean == 0 || cv.SeenMean == 0 {
		t.Errorf("summaries not filled: %+v", cv)
	}
	var b strings.Builder
	if err := writeCV(&b, cv); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "nl2bash") || !strings.Contains(b.String(), "filesystem") {
		t.Errorf("the table names no fold or class:\n%s", b.String())
	}
}
