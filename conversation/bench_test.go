package conversation_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/conversation"
)

// BenchmarkTurnSQLite is what a --thread adds to a question: read the
// history, append the turn (and prune), on a SQLite file.
func BenchmarkTurnSQLite(b *testing.B) {
	ctx := context.Background()
	db := filepath.Join(b.TempDir(), "threads.db")
	s := conversation.New(sqliteSaverTB(b, db), conversation.Options{})
	turn := graphrag.Turn{Query: "when does the nightly backup run?", Answer: "At 02:30, after the database dump [1]."}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.History(ctx, "bench"); err != nil {
			b.Fatal(err)
		}
		if err := s.Append(ctx, "bench", turn); err != nil {
			b.Fatal(err)
		}
	}
}
