package sqlite_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/retrievers/sqlite"
)

// crashEnv names the store file a re-executed test binary writes to until
// it is killed.
const crashEnv = "GRAPHRAG_SQLITE_CRASH_WRITER"

// TestCrashWriter is not a test of its own: TestCrashMidIngest runs the
// test binary again with crashEnv set, and this writes batches of
// three-chunk documents forever, until the parent kills it.
func TestCrashWriter(t *testing.T) {
	path := os.Getenv(crashEnv)
	if path == "" {
		t.Skip("helper process for TestCrashMidIngest")
	}
	s, err := sqlite.Open(context.Background(), path, sqlite.Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	for batch := 0; ; batch++ {
		var recs []graphrag.Record
		for i := 0; i < 50; i++ {
			id := fmt.Sprintf("doc-%d-%d", batch%40, i) // replaces earlier versions too
			r := graphrag.Record{Doc: graphrag.Document{ID: id, Title: id, Type: "txt", Hash: fmt.Sprint(batch)}}
			for c := 0; c < 3; c++ {
				r.Chunks = append(r.Chunks, graphrag.Chunk{Ordinal: c, Text: fmt.Sprintf("batch %d chunk %d of %s with some words to index", batch, c, id)})
			}
			recs = append(recs, r)
		}
		if err := s.Put(context.Background(), recs...); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(3)
		}
		if batch == 5 {
			fmt.Println("ready") // the parent kills us some time after this
		}
	}
}

// TestCrashMidIngest kills a writing process at random points and checks
// that the store opens, passes SQLite's integrity check and holds only
// whole documents, each with the chunks of one version.
func TestCrashMidIngest(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	path := filepath.Join(t.TempDir(), "crash.db")
	for round, delay := range []time.Duration{0, 30 * time.Millisecond, 120 * time.Millisecond} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestCrashWriter$", "-test.count=1")
		cmd.Env = append(os.Environ(), crashEnv+"="+path)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		buf := make([]byte, 6)
		if _, err := out.Read(buf); err != nil {
			t.Fatalf("round %d: writer did not get going: %v", round, err)
		}
		time.Sleep(delay)
		if err := cmd.Process.Kill(); err != nil {
			t.Fatal(err)
		}
		_ = cmd.Wait()

		s, err := sqlite.Open(context.Background(), path, sqlite.Options{})
		if err != nil {
			t.Fatalf("round %d: reopen after kill: %v", round, err)
		}
		var check string
		if err := s.DB().QueryRow("PRAGMA integrity_check").Scan(&check); err != nil || check != "ok" {
			t.Fatalf("round %d: integrity_check = %q, %v", round, check, err)
		}
		if _, err := s.DB().Exec("INSERT INTO chunks_fts(chunks_fts) VALUES('integrity-check')"); err != nil {
			t.Fatalf("round %d: FTS index inconsistent: %v", round, err)
		}
		rows, err := s.DB().Query(`SELECT d.id, d.hash, count(c.rowid), count(DISTINCT substr(f.text, 1, instr(f.text, ' chunk')))
			FROM documents d LEFT JOIN chunks c ON c.doc_id = d.id LEFT JOIN chunks_fts f ON f.rowid = c.rowid GROUP BY d.id`)
		if err != nil {
			t.Fatal(err)
		}
		docs := 0
		for rows.Next() {
			var id, hash string
			var chunks, versions int
			if err := rows.Scan(&id, &hash, &chunks, &versions); err != nil {
				t.Fatal(err)
			}
			docs++
			if chunks != 3 || versions != 1 {
				t.Errorf("round %d: %s has %d chunks from %d versions, want 3 from 1", round, id, chunks, versions)
			}
		}
		rows.Close()
		if docs == 0 || docs%50 != 0 {
			t.Errorf("round %d: %d documents, want whole batches of 50", round, docs)
		}
		s.Close()
	}
}
