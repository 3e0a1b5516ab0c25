package postgres_test

import (
	"context"
	"encoding/json"
	"fmt"

	"testing"
	"time"

	"github.com/graphrag/graphrag/graph"
)

func TestThreads(t *testing.T) {
	ctx := context.Background()
	s := newSaver(t)
	for _, thread := range []string{"b/two", "a/one", "b/one", "b_x", "b%"} {
		for seq := int64(1); seq <= 2; seq++ {
			c := graph.Checkpoint{Thread: thread, Seq: seq, Step: 1, Version: 1, State: json.RawMessage(`{}`), Created: time.Now()}
			if err := s.Put(ctx, c); err != nil {
				t.Fatal(err)
			}
		}
	}
	for prefix, want := range map[string]string{
		"":   "[a/one b% b/one b/two b_x]",
		"b/": "[b/one b/two]",
		"b%": "[b%]", // a prefix is a string, not a LIKE pattern
		"c":  "[]",
	} {
		got, err := s.Threads(ctx, prefix)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(got) != want {
			t.Errorf("Threads(%q) = %v, want %s", prefix, got, want)
		}
	}
}
