package postgres_test

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/graphrag/graphrag/graph"
	"github.com/graphrag/graphrag/graph/checkpoint/checkpointtest"
	"github.com/graphrag/graphrag/graph/checkpoint/postgres"
	"github.com/graphrag/graphrag/internal/pgtest"
)

// startPgBouncer runs PgBouncer in transaction mode in front of the test
// database, with the connections' search_path set to schema, and returns
// its URL. The pool has one server connection, so every client shares it
// between transactions: what breaks behind a pooler (prepared statements,
// session state) breaks here.
func startPgBouncer(t *testing.T, url, schema string) string {
	t.Helper()
	bin, err := exec.LookPath("pgbouncer")
	if err != nil {
		bin, err = exec.LookPath("/usr/sbin/pgbouncer") // not on a normal user's PATH
	}
	if err != nil {
		if pgtest.Required() {
			t.Fatalf("pgbouncer is not installed (%s=1: the pooler test must run); scripts/db-up.sh installs it (apt-get install pgbouncer)", pgtest.EnvRequire)
		}
		t.Skip("pgbouncer is not installed (apt-get install pgbouncer)")
	}
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		t.Fatal(err)
	}
	// Not t.TempDir: its parent is private, and PgBouncer may run as
	// another user.
	dir, err := os.MkdirTemp("", "graphrag-pgbouncer-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	host := cfg.Host
	if host == "localhost" || host == "" {
		host = "127.0.0.1"
	}
	userlist := filepath.Join(dir, "userlist.txt")
	ini := filepath.Join(dir, "pgbouncer.ini")
	write := func(path, text string) {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(userlist, fmt.Sprintf("%q %q\n", cfg.User, cfg.Password))
	write(ini, fmt.Sprintf(`[databases]
bouncer = host=%s port=%d dbname=%s user=%s password=%s connect_query='SET search_path = "%s", public'

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = %d
unix_socket_dir =
auth_type = plain
auth_file = %s
pool_mode = transaction
default_pool_size = 1
max_client_conn = 100
ignore_startup_parameters = extra_float_digits
`, host, cfg.Port, cfg.Database, cfg.User, cfg.Password, schema, port, userlist))

	cmd := exec.Command(bin, ini)
	var logs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if os.Geteuid() == 0 { // PgBouncer refuses to run as root
		u, err := user.Lookup("postgres")
		if err != nil {
			t.Fatalf("running as root and there is no postgres user to run pgbouncer as: %v", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}}
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-exited
	})
	bouncer := fmt.Sprintf("postgres://%s:%s@127.0.0.1:%d/bouncer?sslmode=disable", cfg.User, cfg.Password, port)
	// Wait for it to accept connections (start-up, not a timing assertion).
	deadline := time.Now().Add(30 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		conn, err := pgx.Connect(ctx, bouncer)
		cancel()
		if err == nil {
			conn.Close(context.Background())
			return bouncer
		}
		if time.Now().After(deadline) {
			t.Fatalf("pgbouncer did not come up: %v\n%s", err, logs.String())
		}
		select {
		case werr := <-exited:
			exited <- werr // for the cleanup
			t.Fatalf("pgbouncer exited: %v\n%s", werr, logs.String())
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// TestBehindPgBouncerTransactionMode runs the conformance suite and a
// durable run with an interrupt through PgBouncer in transaction mode, on
// a pool left in pgx's default exec mode (which caches prepared
// statements): the Saver must not depend on it.
func TestBehindPgBouncerTransactionMode(t *testing.T) {
	url := pgtest.URL(t)
	ctx := context.Background()
	open := func(t *testing.T) *postgres.Saver {
		schema := pgtest.NewSchema(t, url)
		bouncer := startPgBouncer(t, url, schema)
		pool, err := pgxpool.New(ctx, bouncer)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(pool.Close)
		s := postgres.New(pool)
		if err := s.Migrate(ctx); err != nil {
			t.Fatal(err)
		}
		return s
	}
	checkpointtest.Run(t, func(t *testing.T) graph.CheckpointStore { return open(t) })

	t.Run("durable run with an interrupt", func(t *testing.T) {
		s := open(t)
		g := graph.NewStateGraph[chat]()
		g.AddNode("ask", func(ctx context.Context, c chat) (chat, error) {
			v, err := graph.Interrupt[string](ctx, "which?")
			if err != nil {
				return c, err
			}
			c.Answer = v
			return c, nil
		})
		g.AddNode("log", func(_ context.Context, c chat) (chat, error) { c.Turns = append(c.Turns, c.Answer); return c, nil })
		g.SetEntryPoint("ask")
		g.AddEdge("ask", "log")
		g.AddEdge("log", graph.END)
		r, err := g.Compile(graph.WithCheckpointer(s), graph.WithRetention(graph.Retention{KeepLast: 2}))
		if err != nil {
			t.Fatal(err)
		}
		_, err = r.Invoke(ctx, chat{}, graph.WithThread("b1"))
		in, ok := err.(*graph.Interrupted)
		if !ok {
			t.Fatalf("err = %v, want *graph.Interrupted", err)
		}
		c, err := r.Invoke(ctx, chat{}, graph.Resume(in.Token, "the second"))
		if err != nil || c.Answer != "the second" || len(c.Turns) != 1 {
			t.Fatalf("resumed: %+v, %v", c, err)
		}
		if list, _ := s.List(ctx, "b1"); len(list) != 2 {
			t.Errorf("retention left %d checkpoints, want 2", len(list))
		}
	})
}
