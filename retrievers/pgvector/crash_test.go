package pgvector

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/internal/pgtest"
	"github.com/graphrag/graphrag/retrievers/storetest"
)

const (
	crashEnvSchema = "GRAPHRAG_PGVECTOR_CRASH_SCHEMA"
	crashDocs      = 20
	crashChunks    = 100 // 2,000 chunks per Put: long enough to be killed inside
)

// crashRecords is one version of the corpus the crash test ingests.
func crashRecords(version string) []graphrag.Record {
	recs := make([]graphrag.Record, crashDocs)
	for d := range recs {
		texts := make([]string, crashChunks)
		for i := range texts {
			texts[i] = fmt.Sprintf("%s chunk %d of document %d, some words to index", version, i, d)
		}
		r := rec(fmt.Sprintf("doc%03d", d), "Crash", texts...)
		r.Doc.Hash = version
		recs[d] = r
	}
	return recs
}

// TestCrashHelperIngest is not a test on its own: TestKilledIngest runs the
// test binary with crashEnvSchema set, and this function then ingests new
// versions of the corpus in a loop until the parent kills the process.
func TestCrashHelperIngest(t *testing.T) {
	schema := os.Getenv(crashEnvSchema)
	if schema == "" {
		t.Skip("helper process for TestKilledIngestLeavesNoPartialDocument")
	}
	st, err := Open(context.Background(), os.Getenv(pgtest.EnvURL), Options{Schema: schema, Embedder: storetest.NewHashEmbedder(32)})
	if err != nil {
		fmt.Println("error", err)
		os.Exit(2)
	}
	for i := 0; ; i++ {
		fmt.Printf("put v%d\n", i)
		if err := st.Put(context.Background(), crashRecords(fmt.Sprintf("v%d", i))...); err != nil {
			fmt.Println("error", err)
			os.Exit(2)
		}
	}
}

// TestKilledIngestLeavesNoPartialDocument SIGKILLs an ingest while its Put
// transaction holds the collection lock, then ingests again: no document is
// duplicated or partial, and every document is in one version.
func TestKilledIngestLeavesNoPartialDocument(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns a process that ingests 2,000 chunks per Put")
	}
	url := pgtest.URL(t)
	schema := pgtest.NewSchema(t, url)
	migrateSchema(t, url, schema)
	ctx := context.Background()
	st, err := Open(ctx, url, Options{Schema: schema, Embedder: storetest.NewHashEmbedder(32)})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	start := time.Now()
	if err := st.Put(ctx, crashRecords("base")...); err != nil {
		t.Fatal(err)
	}
	t.Logf("base put %v", time.Since(start))

	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashHelperIngest$", "-test.count=1")
	cmd.Env = append(os.Environ(), crashEnvSchema+"="+schema, pgtest.EnvURL+"="+url)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	// Wait until the helper is inside its second Put's transaction: it
	// announced the Put and holds the collection's advisory lock.
	deadline := time.After(60 * time.Second)
	puts := 0
	for puts < 2 {
		select {
		case l, ok := <-lines:
			if !ok || strings.HasPrefix(l, "error") {
				cmd.Process.Kill()
				t.Fatalf("helper ended early: %q", l)
			}
			if strings.HasPrefix(l, "put ") {
				puts++
			}
		case <-deadline:
			cmd.Process.Kill()
			t.Fatal("helper did not start its second Put within 60s")
		}
	}
	inside := false
	for range 2000 {
		if collectionLockHeld(t, st, true) {
			inside = true
			break
		}
		time.Sleep(time.Millisecond)
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	werr := cmd.Wait()
	var exitErr *exec.ExitError
	if !errors.As(werr, &exitErr) {
		t.Fatalf("helper exit: %v, want killed", werr)
	}
	if !inside {
		t.Log("did not observe the helper inside COPY; it was killed wherever it was")
	}

	t.Logf("killed at %v", time.Since(start))
	// The interrupted Put left nothing: every document is whole, in one version.
	checkWhole(t, st, "")
	// Ingesting again (the lock is released when the server notices the dead
	// client) converges to the new version.
	if err := st.Put(ctx, crashRecords("again")...); err != nil {
		t.Fatal(err)
	}
	checkWhole(t, st, "again")
	t.Logf("done at %v", time.Since(start))
}

// checkWhole asserts every document has exactly crashChunks chunks, all of
// the document's version (want, when set).
func checkWhole(t *testing.T, st *Store, want string) {
	t.Helper()
	ctx := context.Background()
	rows, err := st.pool.Query(ctx, `
		SELECT d.id, d.hash, count(c.*), count(*) FILTER (WHERE c.text LIKE d.hash || ' chunk %')
		FROM documents d LEFT JOIN chunks c ON c.collection_id = d.collection_id AND c.doc_id = d.id
		GROUP BY d.id, d.hash ORDER BY d.id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var id, hash string
		var chunks, same int
		if err := rows.Scan(&id, &hash, &chunks, &same); err != nil {
			t.Fatal(err)
		}
		n++
		if chunks != crashChunks || same != crashChunks {
			t.Errorf("%s (version %s): %d chunks, %d of its version; want %d", id, hash, chunks, same, crashChunks)
		}
		if want != "" && hash != want {
			t.Errorf("%s: version %s, want %s", id, hash, want)
		}
	}
	if n != crashDocs {
		t.Errorf("%d documents, want %d", n, crashDocs)
	}
	stats, err := st.Stats(ctx)
	if err != nil || stats.Documents != crashDocs || stats.Chunks != crashDocs*crashChunks {
		t.Errorf("stats = %+v, %v; want %d docs, %d chunks", stats, err, crashDocs, crashDocs*crashChunks)
	}
}

// collectionLockHeld reports whether another session holds st's collection
// advisory lock (a Put is inside its transaction), optionally while running COPY.
func collectionLockHeld(t *testing.T, st *Store, inCopy bool) bool {
	t.Helper()
	var n int
	err := st.pool.QueryRow(context.Background(), `
		SELECT count(*) FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
		WHERE l.locktype = 'advisory' AND l.granted AND a.pid <> pg_backend_pid()
		  AND ((l.classid::bigint << 32) | l.objid::bigint) = hashtextextended($1, 0)
		  AND (NOT $2 OR a.query ILIKE 'copy%')`,
		"graphrag.collection:"+st.opts.Schema+":"+st.opts.Collection, inCopy).Scan(&n)
	if err != nil {
		t.Fatal(err)
	}
	return n > 0
}
