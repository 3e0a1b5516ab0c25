package evals

import (
	"context"
	"math"
	"strings"
	"testing"
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
