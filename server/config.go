package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"log/slog"
	"net"
	"path/filepath"
	"time"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/graph"
	"github.com/graphrag/graphrag/nodes"
)

// Runner runs the RAG graph for one query and streams its events.
// *graph.Runnable[nodes.State], as returned by nodes.Build, satisfies it.
// The last event of a successful run is graph.EventRunEnd with the final
// nodes.State as its payload.
type Runner interface {
	Stream(ctx context.Context, s nodes.State, opts ...graph.RunOption) iter.Seq2[graph.Event, error]
}

// Diagrammer renders the graph. *graph.Runnable satisfies it; when
// Config.Diagram is nil and the Runner is also a Diagrammer, the runner is used.
type Diagrammer interface {
	Mermaid(opts ...graph.RenderOption) string
	DOT(opts ...graph.RenderOption) string
}

// IngestFunc ingests files and directories (absolute, cleaned paths, each
// inside one of Config.IngestRoots) and returns a JSON-encodable summary.
// It should honour ctx: a client that goes away cancels its ingest.
type IngestFunc func(ctx context.Context, paths []string) (any, error)

// ReadyFunc reports whether the store can be reached; GET /readyz calls it.
type ReadyFunc func(ctx context.Context) error

// Threads keeps conversations by name for queries that send a "thread".
// History returns a thread's earlier turns, oldest first (none for a new
// thread); Append adds a turn after a run. Both must be safe for
// concurrent use. conversation.Store satisfies it.
type Threads interface {
	History(ctx context.Context, thread string) ([]graphrag.Turn, error)
	Append(ctx context.Context, thread string, t graphrag.Turn) error
}

// Config configures a Server. Only Runner is required; the zero value of
// every other field is a safe default.
type Config struct {
	// Addr is the TCP address to listen on. Default "127.0.0.1:8080":
	// loopback only. Binding elsewhere without a Token is allowed but logged.
	Addr string
	// Runner answers queries (required).
	Runner Runner
	// State, when set, builds the initial state of a run from the request's
	// query and history (e.g. to set the retry budgets). Default: a State
	// with Query and History set.
	State func(query string, history []graphrag.Turn) nodes.State
	// Diagram renders GET /v1/graph; default: Runner, if it is a Diagrammer.
	Diagram Diagrammer
	// Ingest serves POST /v1/ingest; nil answers 501 not_configured.
	Ingest IngestFunc
	// IngestRoots are the directories POST /v1/ingest may read. Paths
	// outside them (after resolving symlinks) are refused with 403. Empty
	// refuses every ingest.
	IngestRoots []string
	// Ready checks the store for GET /readyz; nil means always ready.
	Ready ReadyFunc
	// Sources serves GET /v1/sources: what the store holds (ingested
	// folders, counts, last ingest, skipped files by reason) as a
	// JSON-encodable value; nil answers 501 not_configured.
	Sources func(ctx context.Context) (any, error)
	// Threads keeps the conversations of queries that name a "thread";
	// nil answers such a query 501 not_configured.
	Threads Threads
	// Checkpoints is the checkpointer the Runner was compiled with
	// (graph.WithCheckpointer) when its runs can pause: with
	// nodes.Options.ConfirmWeb, before a question goes to the web. Each
	// query then runs under a thread of its own; a paused one is answered
	// with an Interrupt, and a later request resumes it
	// (QueryRequest.Resume). The server deletes a run's thread when it
	// ends. Nil: runs cannot pause, and a resume is answered 501.
	Checkpoints graph.CheckpointStore
	// PauseTTL is how long a paused query waits for its answer. Default
	// 10 minutes.
	PauseTTL time.Duration
	// MaxPaused bounds the paused queries kept at once; past it the oldest
	// is dropped. Default 100.
	MaxPaused int
	// Token, when set, is required as "Authorization: Bearer <token>" on
	// every endpoint except /healthz and /readyz.
	Token string
	// AllowedHosts are the Host header values (without port) accepted.
	// Default: when Addr is a loopback address, "localhost", "127.0.0.1"
	// and "::1" — which defeats DNS-rebinding attacks from web pages;
	// otherwise any host.
	AllowedHosts []string
	// TrustedOrigins are browser origins ("scheme://host[:port]") allowed
	// to POST, e.g. a desktop app's web view. Other cross-origin browser
	// requests are refused (CSRF protection); non-browser clients such as
	// curl are unaffected.
	TrustedOrigins []string
	// MaxBodyBytes bounds a request body (and a stdio line). Default 1 MiB.
	MaxBodyBytes int64
	// Timeout bounds one query. Default 2 minutes.
	Timeout time.Duration
	// Heartbeat is how long a stream may stay silent before the server
	// writes a keep-alive (an SSE comment, or a "heartbeat" event in
	// NDJSON). Default 15 seconds; negative turns heartbeats off.
	Heartbeat time.Duration
	// IngestTimeout bounds one ingest. Default 1 hour.
	IngestTimeout time.Duration
	// MaxConcurrent bounds the queries running at once (the workers).
	// Default 8.
	MaxConcurrent int
	// QueueLength bounds the queries waiting for a worker; a query that
	// finds the queue full is answered 429 with Retry-After (stdio: error
	// "too_many_requests"). Default 256; negative means no queue: 429 as
	// soon as every worker is busy.
	QueueLength int
	// QueueWait bounds how long a query waits in the queue before it is
	// answered 429. Default 30 seconds.
	QueueWait time.Duration
	// MaxSteps caps the engine steps a request may ask for in options.max_steps.
	// Default 100.
	MaxSteps int
	// ShutdownTimeout is how long a graceful shutdown waits for in-flight
	// requests before closing their connections. Default 30 seconds.
	ShutdownTimeout time.Duration
	// Logger receives the server's logs. Default: discard. It must never
	// write to stdout when ServeStdio is used.
	Logger *slog.Logger
}

// Errors returned by New.
var (
	ErrNoRunner = errors.New("server: Config.Runner is required")
)

const (
	defaultAddr          = "127.0.0.1:8080"
	defaultMaxBody       = 1 << 20
	defaultTimeout       = 2 * time.Minute
	defaultIngestTimeout = time.Hour
	defaultHeartbeat     = 15 * time.Second
	defaultMaxConcurrent = 8
	// defaultQueueLength lets a burst of a few hundred clients wait rather
	// than be refused (the load benchmark sends 200 at once); each waiting
	// query holds its decoded request, at most MaxBodyBytes.
	defaultQueueLength = 256
	// defaultQueueWait is a quarter of defaultTimeout: a client that waited
	// longer for a worker is better told to retry.
	defaultQueueWait       = 30 * time.Second
	defaultMaxSteps        = 100
	defaultShutdownTimeout = 30 * time.Second
)

// withDefaults returns c with defaults applied, or an error naming the
// field that is wrong.
func (c Config) withDefaults() (Config, error) {
	if c.Runner == nil {
		return c, ErrNoRunner
	}
	if c.Addr == "" {
		c.Addr = defaultAddr
	}
	if c.State == nil {
		c.State = func(q string, h []graphrag.Turn) nodes.State { return nodes.State{Query: q, History: h} }
	}
	if c.Diagram == nil {
		if d, ok := c.Runner.(Diagrammer); ok {
			c.Diagram = d
		}
	}
	if c.MaxBodyBytes <= 0 {
		c.MaxBodyBytes = defaultMaxBody
	}
	if c.Timeout <= 0 {
		c.Timeout = defaultTimeout
	}
	if c.Heartbeat == 0 {
		c.Heartbeat = defaultHeartbeat
	}
	if c.IngestTimeout <= 0 {
		c.IngestTimeout = defaultIngestTimeout
	}
	if c.MaxConcurrent <= 0 {
		c.MaxConcurrent = defaultMaxConcurrent
	}
	switch {
	case c.QueueLength == 0:
		c.QueueLength = defaultQueueLength
	case c.QueueLength < 0:
		c.QueueLength = 0
	}
	if c.QueueWait <= 0 {
		c.QueueWait = defaultQueueWait
	}
	if c.MaxSteps <= 0 {
		c.MaxSteps = defaultMaxSteps
	}
	if c.PauseTTL <= 0 {
		c.PauseTTL = defaultPauseTTL
	}
	if c.MaxPaused <= 0 {
		c.MaxPaused = defaultMaxPaused
	}
	if c.ShutdownTimeout <= 0 {
		c.ShutdownTimeout = defaultShutdownTimeout
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	roots := make([]string, 0, len(c.IngestRoots))
	for _, r := range c.IngestRoots {
		if !filepath.IsAbs(r) {
			return c, fmt.Errorf("server: ingest root %q must be an absolute path", r)
		}
		roots = append(roots, filepath.Clean(r))
	}
	c.IngestRoots = roots
	if c.AllowedHosts == nil && isLoopbackAddr(c.Addr) {
		c.AllowedHosts = []string{"localhost", "127.0.0.1", "::1"}
	}
	return c, nil
}

// isLoopbackAddr reports whether addr ("host:port") names a loopback host.
func isLoopbackAddr(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
