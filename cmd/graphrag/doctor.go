package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/llm"
	"github.com/graphrag/graphrag/retrievers/sqlite"
	"github.com/spf13/cobra"
)

func (a *app) doctorCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "doctor",
		Short: "Check the store and the configured models, and say how to fix what is wrong",
		Long: `Check that each configured model's server is reachable and has the model,
that the store opens and is intact (SQLite: quick_check and the keyword
index's integrity check), and that the embedding model matches the one the
store was built with. For each problem it prints what to run to fix it.
Exits 1 when a check fails.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			checks, emb := a.modelChecks(ctx)
			checks = append(checks, a.storeCheck(ctx, emb))
			out := cmd.OutOrStdout()
			failed := 0
			for _, c := range checks {
				mark := "ok  "
				if !c.OK {
					mark = "FAIL"
					failed++
				}
				fmt.Fprintf(out, "%s %s: %s\n", mark, c.Name, c.Detail)
				if !c.OK && c.Fix != "" {
					fmt.Fprintf(out, "     fix: %s\n", c.Fix)
				}
			}
			if failed > 0 {
				return &exitError{code: 1, err: fmt.Errorf("%d check(s) failed", failed)}
			}
			return nil
		},
	}
}

// modelChecks checks the configured models and returns the embedder, if one
// is configured and answers.
func (a *app) modelChecks(ctx context.Context) ([]llm.Check, graphrag.Embedder) {
	cfg, haveLLM, err := a.llmConfig()
	if err != nil {
		return []llm.Check{{Name: "configuration", Detail: err.Error(), Fix: "see graphrag --help for the model spec format"}}, nil
	}
	var checks []llm.Check
	if !haveLLM {
		checks = append(checks, llm.Check{Name: "language model", OK: true,
			Detail: "none configured: answers are extractive (for written answers pass --llm ollama:qwen2.5:3b or set GRAPHRAG_LLM)"})
	}
	if haveLLM || a.embed != "" || a.vision != "" {
		checks = append(checks, llm.Doctor(ctx, cfg, httpClient())...)
	}
	if a.embed == "" {
		return checks, nil
	}
	e, err := a.embedder(ctx)
	if err != nil {
		return checks, nil // Doctor has said why
	}
	return checks, e
}

// storeCheck opens the store with the configured embedder: a store built
// with another one refuses, and the refusal says what to do.
func (a *app) storeCheck(ctx context.Context, emb graphrag.Embedder) llm.Check {
	c := llm.Check{Name: "store " + displayStore(a.store)}
	if !isPostgresURL(a.store) {
		if _, err := os.Stat(a.store); os.IsNotExist(err) {
			c.Detail = "does not exist yet"
			c.Fix = "graphrag ingest PATH... creates it"
			return c
		}
	}
	st, err := a.openStore(ctx, emb, false)
	if err != nil {
		c.Detail = err.Error()
		switch {
		case isPostgresURL(a.store):
			c.Fix = "start PostgreSQL (scripts/db-up.sh, or docker compose up -d db), then graphrag migrate --store URL"
		case errors.Is(err, sqlite.ErrCorrupt) || strings.Contains(err.Error(), "malformed") || strings.Contains(err.Error(), "not a database"):
			c.Fix = rebuildFix(a.store)
		}
		return c
	}
	defer st.Close()
	stats, err := st.Stats(ctx)
	if err != nil {
		c.Detail = err.Error()
		if !isPostgresURL(a.store) && (errors.Is(err, sqlite.ErrCorrupt) || strings.Contains(err.Error(), "malformed")) {
			c.Fix = rebuildFix(a.store)
		}
		return c
	}
	if chk, ok := st.(interface{ Check(context.Context) error }); ok {
		if err := chk.Check(ctx); err != nil {
			c.Detail = err.Error()
			c.Fix = rebuildFix(a.store)
			return c
		}
	}
	built := "no embedder (keyword search)"
	if stats.Embedder != "" {
		built = fmt.Sprintf("embedder %s, dimension %d", stats.Embedder, stats.Dimension)
	}
	c.OK = true
	c.Detail = fmt.Sprintf("%d documents, %d chunks, built with %s", stats.Documents, stats.Chunks, built)
	return c
}

// rebuildFix says how to rebuild a damaged SQLite store: the ingested files
// are the source, so nothing but the time to ingest is lost.
func rebuildFix(store string) string {
	return fmt.Sprintf("the store cannot be repaired in place; rebuild it from your files: mv %s %s.damaged, then graphrag ingest PATH... (the paths you ingested before; they are listed in %s.ingested.json)",
		store, store, store)
}
