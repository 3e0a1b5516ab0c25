package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/graphrag/graphrag/ingest"
	"github.com/graphrag/graphrag/server"
	"github.com/spf13/cobra"
)

func (a *app) serveCmd() *cobra.Command {
	var (
		addr, token string
		stdioMode   bool
		roots       []string
		maxConc     int
		queueLen    int
		queueWait   time.Duration
		confirmWeb  bool
		f           runFlags
	)
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve graphrag over HTTP (JSON, NDJSON, server-sent events) or stdio",
		Long: `Serve the RAG graph to other programs.

HTTP (default, on 127.0.0.1:8080):
  POST /v1/query    {"query": "...", "history": [...]} → JSON answer; send
                    Accept: application/x-ndjson or text/event-stream (or
                    "stream": "ndjson"|"sse") to stream the graph's events and tokens;
                    {"query": "...", "thread": "NAME"} continues a conversation the
                    server keeps (as run/chat --thread do)
  POST /v1/ingest   {"paths": [...]} within the --ingest-root directories
  GET  /v1/graph    the graph as Mermaid (?format=dot for Graphviz)
  GET  /healthz, /readyz, /metrics (Prometheus text)

--stdio speaks newline-delimited JSON on stdin/stdout for desktop apps:
  {"id": 1, "method": "query", "params": {"query": "..."}}
Streamed events carry "id": null; the final message carries the request's id.

--confirm-web pauses a query before its question goes to the web search:
HTTP answers {"interrupt": {"token": ..., "query": ..., "provider": ...}}
(a final "interrupt" event when streaming) and {"resume": {"token": ...,
"allow": true}} continues it (false: answer from local files only); stdio
answers {"id": 1, "interrupt": {...}} and takes
{"id": 2, "method": "resume", "params": {"token": ..., "allow": true}}.
Nothing else is ever written to stdout; logs go to stderr.`,
		Example: `  graphrag serve --addr 127.0.0.1:8080 --token "$(openssl rand -hex 16)"
  curl -s localhost:8080/v1/query -d '{"query": "when does the nightly backup run?"}'
  echo '{"id":1,"method":"query","params":{"query":"when does the backup run?"}}' | graphrag serve --stdio`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			if token == "" {
				token = a.getenv("GRAPHRAG_TOKEN")
			}
			opts := f.options()
			opts.ConfirmWeb = confirmWeb
			p, err := a.openPipeline(ctx, opts)
			if err != nil {
				return err
			}
			defer p.Close()
			logger := slog.New(slog.NewTextHandler(a.io.err, &slog.HandlerOptions{Level: a.logLevel()}))
			ingestOpts := &ingestOptions{}
			closeCaptions, err := a.captioner(ctx, ingestOpts)
			if err != nil {
				return err
			}
			defer closeCaptions()
			for _, n := range p.notices {
				logger.Info(n)
			}
			absRoots := make([]string, 0, len(roots))
			for _, r := range roots {
				abs, err := filepath.Abs(r)
				if err != nil {
					return fmt.Errorf("--ingest-root %q: %w", r, err)
				}
				absRoots = append(absRoots, abs)
			}
			cfg := server.Config{
				Addr:          addr,
				Runner:        p.graph,
				Token:         token,
				IngestRoots:   absRoots,
				MaxConcurrent: maxConc,
				QueueLength:   queueLen,
				QueueWait:     queueWait,
				Logger:        logger,
				Ready: func(ctx context.Context) error {
					_, err := p.store.Stats(ctx)
					return err
				},
				Sources: func(ctx context.Context) (any, error) {
					return a.sourcesReport(ctx, p.store)
				},
				Ingest: func(ctx context.Context, paths []string) (any, error) {
					sum, err := a.ingestInto(ctx, p.store, p.embedder, paths, ingestOpts)
					// Recorded as `graphrag ingest` records it, so `sources`
					// and GET /v1/sources show what serve ingested.
					if rec, lerr := loadSources(ctx, p.store); lerr == nil {
						plan := &ingestPlan{rec: rec, paths: paths}
						plan.record(sum, err == nil, time.Now())
						if serr := saveSources(context.WithoutCancel(ctx), p.store, plan.rec); serr != nil && err == nil {
							err = serr
						}
					}
					return wireSummary(sum), err
				},
			}
			if p.pauses != nil {
				cfg.Checkpoints = p.pauses
			}
			if th, closeThreads, err := a.openThreads(ctx); err != nil {
				logger.Warn("conversation threads are off: queries naming a thread will be refused", "error", err)
			} else {
				defer closeThreads()
				cfg.Threads = recentTurns{th, threadHistoryTurns}
			}
			if stdioMode {
				out := a.io.out
				if out == os.Stdout {
					// The protocol owns the real stdout; anything else that
					// prints by mistake goes to stderr instead of corrupting it.
					os.Stdout = os.Stderr
					defer func() { os.Stdout = out.(*os.File) }()
				}
				return server.ServeStdio(ctx, a.io.in, out, cfg)
			}
			srv, err := server.New(cfg)
			if err != nil {
				return err
			}
			return srv.ListenAndServe(ctx)
		},
	}
	cmd.Flags().StringVar(&addr, "addr", "127.0.0.1:8080", "address to listen on (loopback by default; set --token before exposing it)")
	cmd.Flags().StringVar(&token, "token", "", "require Authorization: Bearer TOKEN on every endpoint but /healthz and /readyz [$GRAPHRAG_TOKEN]")
	cmd.Flags().BoolVar(&stdioMode, "stdio", false, "speak newline-delimited JSON on stdin/stdout instead of HTTP")
	cmd.Flags().StringSliceVar(&roots, "ingest-root", nil, "directory POST /v1/ingest may read (repeatable; none: ingest is refused)")
	cmd.Flags().IntVar(&maxConc, "max-concurrent", 8, "queries run at once; more wait in the queue")
	cmd.Flags().IntVar(&queueLen, "queue", 256, "queries that may wait for a worker; past it they are answered 429 (-1: no queue)")
	cmd.Flags().BoolVar(&confirmWeb, "confirm-web", false, "pause a query before it is sent to the web search (--web): the client is answered with an interrupt and a token, and resumes with {\"resume\": {\"token\": ..., \"allow\": true|false}}")
	cmd.Flags().DurationVar(&queueWait, "queue-wait", 30*time.Second, "longest a query waits for a worker before it is answered 429")
	f.bindServe(cmd)
	return cmd
}

// ingestSummary is an ingest's summary on the wire.
type ingestSummary struct {
	Files      int            `json:"files"`
	Added      int            `json:"added"`
	Updated    int            `json:"updated"`
	Unchanged  int            `json:"unchanged"`
	Deleted    int            `json:"deleted"`
	Chunks     int            `json:"chunks"`
	Skipped    map[string]int `json:"skipped"`
	Problems   []string       `json:"problems"`
	DurationMS int64          `json:"duration_ms"`
}

func wireSummary(s ingest.Summary) ingestSummary {
	w := ingestSummary{Files: s.Files, Added: s.Added, Updated: s.Updated, Unchanged: s.Unchanged, Deleted: s.Deleted,
		Chunks: s.Chunks, Skipped: s.Skipped, Problems: []string{}, DurationMS: s.Duration.Milliseconds()}
	if w.Skipped == nil {
		w.Skipped = map[string]int{}
	}
	for _, p := range s.Problems {
		w.Problems = append(w.Problems, p.String())
	}
	return w
}
