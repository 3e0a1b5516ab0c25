package nodes

import (
	"bytes"
	"encoding/binary"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var updateRouter = flag.Bool("update-router", false, "retrain the router and rewrite routerdata/model.bin (go generate ./nodes)")

// TestRouterModelIsCurrent retrains the router from the policy and the
// training data and fails when the shipped model differs: a change to the
// data, the policy, the features or the training settings must come with
// the regenerated model (`go generate ./nodes`).
func TestRouterModelIsCurrent(t *testing.T) {
	if testing.Short() {
		t.Skip("retraining the router takes seconds")
	}
	rows, err := trainingExamples()
	if err != nil {
		t.Fatal(err)
	}
	got := trainRouter(rows).encode()
	if *updateRouter {
		if err := os.WriteFile(filepath.Join("routerdata", "model.bin"), got, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote routerdata/model.bin (%d bytes) from %d rows", len(got), len(rows))
		return
	}
	if bytes.Equal(got, modelData) {
		return
	}
	// Architectures that fuse multiply-adds (arm64) may round a weight
	// differently; allow one quantisation step.
	a, errA := decodeModel(got)
	b, errB := decodeModel(modelData)
	if errA != nil || errB != nil {
		t.Fatalf("routerdata/model.bin is stale or unreadable (%v, %v): run go generate ./nodes", errA, errB)
	}
	off := 0
	for i := 0; i < len(a.w); i += 2 {
		if d := int(int16(binary.LittleEndian.Uint16(a.w[i:]))) - int(int16(binary.LittleEndian.Uint16(b.w[i:]))); d > 1 || d < -1 {
			off++
		}
	}
	if off > 0 || a.temperature != b.temperature {
		t.Fatalf("routerdata/model.bin differs from a model trained on the current data (%d weights, temperature %v vs %v): run go generate ./nodes", off, a.temperature, b.temperature)
	}
}

func TestTrainRouterSeenRejects(t *testing.T) {
	if _, _, err := TrainRouterSeen(SourceGraphrag, 1); err == nil {
		t.Error("holding out every row gave no error")
	}
	if _, _, err := TrainRouterSeen("wikipedia", 10); err == nil {
		t.Error("an unknown source gave no error")
	}
}
