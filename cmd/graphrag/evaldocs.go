package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/graphrag/graphrag/evals"
	"github.com/graphrag/graphrag/ingest"
	"github.com/graphrag/graphrag/retrievers/sqlite"
	"github.com/spf13/cobra"
)

func (a *app) evalDocsCmd() *cobra.Command {
	var (
		keep, questions, set string
		states, baseline     string
		roots, only          []string
		all, asJSON          bool
		minAnswered, minAbst float64
		concurrency          int
	)
	cmd := &cobra.Command{
		Use:   "docs",
		Short: "Score answers on real documents installed here: Go's tree, PostgreSQL's man pages, /usr/share/doc",
		Long: `Build a store from document collections installed on this machine (Go's
source tree and docs under $GOROOT, PostgreSQL's manual pages, Debian's
/usr/share/doc; see evals/datasets/docs/collections.json for the subtrees)
and ask it the bundled questions about them. An answerable question counts
when the answer holds the gold string and cites the gold file; an
unanswerable one when the answer abstains. Collections whose files are not
installed are left out, with their questions, and so is an answerable
question whose gold file is not installed (the report names it).`,
		Example: `  graphrag eval docs
  graphrag eval docs --keep /tmp/docs-store --all
  graphrag eval docs --set heldout --keep /tmp/docs-heldout
  graphrag eval docs --root go=$HOME/sdk/go1.26 --only go
  graphrag eval docs --set tune1 --json > before.json   # then, after a change:
  graphrag eval docs --set tune1 --baseline before.json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			cols, qs, err := evals.LoadDocsSet(set)
			if err != nil {
				return err
			}
			var base *evals.DocsReport
			if baseline != "" {
				// Read before the run, so a wrong path fails at once.
				if base, err = readFlagFile("--baseline", baseline, evals.ReadDocsReport); err != nil {
					return err
				}
			}
			if questions != "" {
				if qs, err = readFlagFile("--questions", questions, evals.ReadDocsQuestions); err != nil {
					return err
				}
			}
			override := map[string]string{}
			for _, r := range roots {
				name, dir, ok := strings.Cut(r, "=")
				if !ok {
					return fmt.Errorf("--root %q: want name=directory, e.g. go=/usr/local/go", r)
				}
				override[name] = dir
			}
			var picked []evals.Collection
			for _, c := range cols {
				if len(only) > 0 && !slices.Contains(only, c.Name) {
					continue
				}
				if dir, ok := override[c.Name]; ok {
					c.Root = dir
				}
				picked = append(picked, c)
			}
			kept, files, missing := evals.ResolveCollections(picked, a.docsEnv)
			for _, m := range missing {
				a.notify("left out " + m)
			}
			if len(kept) == 0 {
				return fmt.Errorf("eval docs: none of the collections is installed here; point at one with --root name=directory")
			}
			m, emb, err := a.models(ctx)
			if err != nil {
				return err
			}
			cfg := evals.DocsConfig{Collections: kept, Questions: qs, Concurrency: concurrency, States: states}
			modelDeps(m, &cfg.Deps)
			bar := a.evalProgress()
			cfg.Progress = bar.update
			cfg.Open = evals.TempSQLite("", sqlite.Options{Embedder: emb})
			if keep != "" {
				if err := os.MkdirAll(keep, 0o755); err != nil {
					return fmt.Errorf("--keep: %w", err)
				}
				path := filepath.Join(keep, "docs.db")
				cfg.Open = func(ctx context.Context) (evals.Store, error) {
					return sqlite.Open(ctx, path, sqlite.Options{Embedder: emb})
				}
			}
			cfg.Ingest = func(ctx context.Context, st evals.Store, paths []string) error {
				is, ok := st.(ingest.Store)
				if !ok {
					return fmt.Errorf("store %T cannot be ingested into", st)
				}
				sum, err := a.ingestInto(ctx, is, nil, paths, &ingestOptions{progress: true})
				if err != nil {
					return err
				}
				var skipped []string
				for reason, n := range sum.Skipped {
					skipped = append(skipped, fmt.Sprintf("%d %s", n, reason))
				}
				a.notify(fmt.Sprintf("ingested %d files (%d chunks written) in %s; skipped: %s", sum.Files, sum.Chunks, sum.Duration.Round(1e7), strings.Join(skipped, ", ")))
				return nil
			}
			rep, err := evals.RunDocs(ctx, cfg, files)
			bar.finish()
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			if base != nil {
				d := evals.CompareDocs(base, rep)
				rep.SinceBaseline = &d
				if !asJSON {
					if err := evals.WriteDocsDiff(out, d); err != nil {
						return err
					}
				}
			}
			if asJSON {
				if n := len(rep.NotInstalled); n > 0 {
					a.notify(fmt.Sprintf("left out %d answerable questions whose gold file is not installed here (not_installed in the report)", n))
				}
				enc := json.NewEncoder(out)
				enc.SetIndent("", "  ")
				if err := enc.Encode(rep); err != nil {
					return err
				}
			} else if err := evals.WriteDocsTable(out, rep, all); err != nil {
				return err
			}
			total := rep.Figures[len(rep.Figures)-1]
			var fails []string
			if minAnswered >= 0 && total.Answered < minAnswered {
				fails = append(fails, fmt.Sprintf("answered %.2f < %.2f", total.Answered, minAnswered))
			}
			if minAbst >= 0 && total.Abstained < minAbst {
				fails = append(fails, fmt.Sprintf("abstained %.2f < %.2f", total.Abstained, minAbst))
			}
			if len(fails) > 0 {
				return &exitError{code: 1, err: fmt.Errorf("thresholds not met: %s", strings.Join(fails, "; "))}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&keep, "keep", "", "keep the store in this directory and reuse it (ingest is incremental)")
	cmd.Flags().StringVar(&set, "set", "dev", "bundled question set: dev (tuned on), heldout (other pages and packages, to confirm), test (others again, looked at since), test2 (others again, now tuned on), test3 (written from the documents alone; tuned on since round 8), test4 (sealed: written from the documents alone; run it only at the end, report its figure, never read its misses), test5 (written from the documents alone; tuned on since round 9), test6 (written from the documents alone; tuned on since round 10), test7 (written from the documents alone; tuned on since round 11), test8 (written from the documents alone; tuned on since round 12), test9 (written from the documents alone; tuned on since round 13), test10 (written from the documents alone; tuned on since round 14), test11 (written from the documents alone; tuned on since round 15), test12 (written from the documents alone; tuned on since round 16), test13 (written from the documents alone; tuned on since round 17), test14 (written from the documents alone; tuned on since round 18), test15 (written from the documents alone; tuned on since round 19), test16 (written from the documents alone; tuned on since round 20), test17 (written from the documents alone; tuned on since round 21), test18 (written from the documents alone; tuned on since round 22), test19 (written from the documents alone; tuned on since round 23), test20 (written from the documents alone; tuned on since round 24), test21 (written from the documents alone; tuned on since round 25), test22 (written from the documents alone; tuned on since round 26), test23 (written from the documents alone; tuned on since round 27), test24 (written from the documents alone; tuned on since round 28), test25 (written from the documents alone; tuned on since round 29), test26 (written from the documents alone; tuned on since round 30), test27 (written from the documents alone; tuned on since round 31), test28 (written from the documents alone; tuned on since round 32), test29 (written from the documents alone; tuned on since round 33), test30 (written from the documents alone; tuned on since round 34), test31 (written from the documents alone; tuned on since round 35), test32 (written from the documents alone; tuned on since round 36), test33 (written from the documents alone; tuned on since round 37), test34 (written from the documents alone; tuned on since round 38), test35 (written from the documents alone; tuned on since round 39), test36 (written from the documents alone; tuned on since round 40), test37 (written from the documents alone; tuned on since round 41), test38 (written from the documents alone; tuned on since round 42), test39 (written from the documents alone; tuned on since round 43), test40 (written from the documents alone; tuned on since round 44), test41 (written from the documents alone; tuned on since round 45), test42 (written from the documents alone; tuned on since round 46), test43 (written from the documents alone; tuned on since round 47), test44 (written from the documents alone; tuned on since round 48), test45 (written from the documents alone; tuned on since round 49), test46 (written from the documents alone; tuned on since round 50), test47 (written from the documents alone; tuned on since round 51), test48 (written from the documents alone: round 51's validation split, only its figure is read), tune1, tune2, tune3 (written from the documents alone as tuning data: read and trained on)")
	cmd.Flags().StringVar(&questions, "questions", "", "questions JSONL instead of the bundled ones (id, collection, question, gold_file, gold or abstain)")
	cmd.Flags().StringArrayVar(&roots, "root", nil, "a collection's root directory, name=directory (repeatable)")
	cmd.Flags().StringSliceVar(&only, "only", nil, "run only these collections (go, pg, debian)")
	cmd.Flags().BoolVar(&all, "all", false, "list every question with its answer, not only the misses")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the report as JSON")
	cmd.Flags().Float64Var(&minAnswered, "min-answered", -1, "fail when the share of answerable questions answered is below this")
	cmd.Flags().Float64Var(&minAbst, "min-abstained", -1, "fail when the share of unanswerable questions abstained is below this")
	cmd.Flags().IntVar(&concurrency, "concurrency", 0, "questions in flight (default: the number of CPUs)")
	cmd.Flags().StringVar(&baseline, "baseline", "", "a report of an earlier run of the same questions (--json): list the questions gained and lost since, by id")
	cmd.Flags().StringVar(&states, "states", "", "write each question's final graph state (hits, kept passages, measurements) as JSON into this directory, ID.json")
	return cmd
}

// readFlagFile reads the file a flag names with read, its errors naming
// the flag.
func readFlagFile[T any](flag, path string, read func(io.Reader) (T, error)) (T, error) {
	var zero T
	fh, err := os.Open(path)
	if err != nil {
		return zero, fmt.Errorf("%s: %w", flag, err)
	}
	defer fh.Close()
	v, err := read(fh)
	if err != nil {
		return zero, fmt.Errorf("%s %s: %w", flag, path, err)
	}
	return v, nil
}

// docsEnv resolves the variables of collection roots: GOROOT from the
// environment, else from the go command.
func (a *app) docsEnv(name string) string {
	if v := a.getenv(name); v != "" || name != "GOROOT" {
		return v
	}
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}
