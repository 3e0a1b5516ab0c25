package sqlite_test

import (
	"bufio"
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	_ "modernc.org/sqlite"

	"github.com/graphrag/graphrag/graph"
	"github.com/graphrag/graphrag/graph/checkpoint/checkpointtest"
	"github.com/graphrag/graphrag/graph/checkpoint/sqlite"
)

func open(tb testing.TB, path string) *sqlite.Saver {
	tb.Helper()
	q := url.Values{}
	for _, p := range []string{"busy_timeout(10000)", "journal_mode(WAL)", "synchronous(NORMAL)"} {
		q.Add("_pragma", p)
	}
	db, err := sql.Open("sqlite", "file:"+(&url.URL{Path: path}).EscapedPath()+"?"+q.Encode())
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	s := sqlite.New(db)
	if err := s.Migrate(context.Background()); err != nil {
		tb.Fatal(err)
	}
	return s
}

// The suite checks Threads only on a store that has it.
var _ checkpointtest.ThreadLister = (*sqlite.Saver)(nil)

func TestConformance(t *testing.T) {
	checkpointtest.Run(t, func(t *testing.T) graph.CheckpointStore {
		return open(t, filepath.Join(t.TempDir(), "cp.db"))
	})
}

func TestMigrateIsIdempotent(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "cp.db"))
	if err := s.Migrate(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// killEnv names the database a re-executed test binary runs the graph on
// until it is killed.
const killEnv = "GRAPHRAG_GRAPH_SIGKILL_DB"

type trail struct{ Ran []string }

// killGraph is a → b → c → d. Each node appends its name to the state and
// to the log file next to the database, so the test can tell which nodes
// ran in which process. In the child, c announces itself and hangs until
// it is killed.
func killGraph(tb testing.TB, cp graph.Checkpointer, logPath string, child bool) *graph.Runnable[trail] {
	g := graph.NewStateGraph[trail]()
	nodes := []string{"a", "b", "c", "d"}
	for _, n := range nodes {
		g.AddNode(n, func(_ context.Context, s trail) (trail, error) {
			f, err := os.OpenFile(logPath, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
			if err != nil {
				return s, err
			}
			fmt.Fprintf(f, "%d:%s\n", os.Getpid(), n)
			f.Close()
			if child && n == "c" {
				fmt.Println("in c")
				select {} // killed here
			}
			s.Ran = append(slices.Clip(s.Ran), n)
			return s, nil
		})
	}
	g.SetEntryPoint("a")
	for i := 0; i+1 < len(nodes); i++ {
		g.AddEdge(nodes[i], nodes[i+1])
	}
	g.AddEdge("d", graph.END)
	r, err := g.Compile(graph.WithCheckpointer(cp))
	if err != nil {
		tb.Fatal(err)
	}
	return r
}

// TestKilledRunChild is not a test of its own: TestResumeAfterSIGKILL runs
// the test binary again with killEnv set, and this runs the graph until the
// parent kills it in node c.
func TestKilledRunChild(t *testing.T) {
	path := os.Getenv(killEnv)
	if path == "" {
		t.Skip("helper process for TestResumeAfterSIGKILL")
	}
	r := killGraph(t, open(t, path), path+".log", true)
	_, err := r.Invoke(context.Background(), trail{}, graph.WithThread("job"))
	t.Fatalf("the run returned (%v); it should have been killed in c", err)
}

func TestResumeAfterSIGKILL(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: runs a child process")
	}
	path := filepath.Join(t.TempDir(), "runs.db")
	cmd := exec.Command(os.Args[0], "-test.run=^TestKilledRunChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), killEnv+"="+path)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || line != "in c\n" {
		_ = cmd.Process.Kill()
		t.Fatalf("child: %q, %v", line, err)
	}
	if err := cmd.Process.Kill(); err != nil { // SIGKILL: no deferred code, no cleanup
		t.Fatal(err)
	}
	_ = cmd.Wait()

	cp := open(t, path)
	r := killGraph(t, cp, path+".log", false)
	s, err := r.Invoke(context.Background(), trail{}, graph.WithThread("job"))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(s.Ran, " "); got != "a b c d" {
		t.Errorf("final state %q, want \"a b c d\"", got)
	}
	log, err := os.ReadFile(path + ".log")
	if err != nil {
		t.Fatal(err)
	}
	child, parent := fmt.Sprint(cmd.Process.Pid), fmt.Sprint(os.Getpid())
	want := strings.Join([]string{child + ":a", child + ":b", child + ":c", parent + ":c", parent + ":d"}, "\n") + "\n"
	if string(log) != want {
		t.Errorf("nodes ran\n%s\nwant (the child ran a, b and was killed in c; the resumed run starts at c)\n%s", log, want)
	}
	list, err := cp.List(context.Background(), "job")
	if err != nil {
		t.Fatal(err)
	}
	var pos []string
	for _, c := range list {
		pos = append(pos, fmt.Sprintf("%d:%s>%s", c.Step, c.Node, c.Next))
	}
	if got := strings.Join(pos, " "); got != "1:a>b 2:b>c 3:c>d 4:d>__end__" {
		t.Errorf("checkpoints %s", got)
	}
}
