package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/graphrag/graphrag/evals"
	"github.com/graphrag/graphrag/nodes"
	"github.com/graphrag/graphrag/retrievers/sqlite"
	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
)

// evalFlags are the flags both eval commands share.
type evalFlags struct {
	corpus      []string
	ablate      string
	concurrency int
	json        bool
	markdown    string
	compare     string
	gates       []string
	min         map[string]*float64
	max         map[string]*float64
}

func (f *evalFlags) bind(cmd *cobra.Command, mins, maxs map[string]string) {
	cmd.Flags().StringSliceVar(&f.corpus, "corpus", nil, "corpus JSONL to ingest into a fresh store first (default: the bundled corpus; with --store, ingested into that store)")
	cmd.Flags().StringVar(&f.ablate, "ablate", "", "run variants side by side: \"standard\" or a comma-separated list (default, bm25, vector, hybrid, no-corrective, rules, learned, no-probe, no-llm-router, llm-router, store-bm25)")
	cmd.Flags().Lookup("ablate").NoOptDefVal = "standard"
	cmd.Flags().IntVar(&f.concurrency, "concurrency", 0, "queries in flight (default: the number of CPUs)")
	cmd.Flags().BoolVar(&f.json, "json", false, "print the report as JSON")
	cmd.Flags().StringVar(&f.markdown, "markdown", "", "also write a Markdown report with SVG charts to this file")
	cmd.Flags().StringVar(&f.compare, "compare", "", "print the changes against an earlier --json report")
	cmd.Flags().StringArrayVar(&f.gates, "gate", nil, "fail unless a metric meets a bound, e.g. retrieval.mrr>=0.9 (repeatable)")
	f.min, f.max = map[string]*float64{}, map[string]*float64{}
	for flag, metric := range mins {
		f.min[metric] = cmd.Flags().Float64(flag, -1, "fail when "+metric+" is below this")
	}
	for flag, metric := range maxs {
		f.max[metric] = cmd.Flags().Float64(flag, -1, "fail when "+metric+" is above this")
	}
}

func (f *evalFlags) variants(routing, withPlanner bool) ([]evals.Variant, error) {
	switch f.ablate {
	case "":
		return nil, nil
	case "standard":
		if routing {
			return evals.RoutingAblation(withPlanner), nil
		}
		return evals.RAGAblation(), nil
	}
	return evals.StandardVariants(strings.Split(f.ablate, ",")...)
}

func (f *evalFlags) checks() ([]evals.Gate, error) {
	var gates []evals.Gate
	for m, v := range f.min {
		if *v >= 0 {
			gates = append(gates, evals.Min(m, *v))
		}
	}
	for m, v := range f.max {
		if *v >= 0 {
			gates = append(gates, evals.Max(m, *v))
		}
	}
	for _, s := range f.gates {
		g, err := evals.ParseGate(s)
		if err != nil {
			return nil, fmt.Errorf("--gate %q: %w", s, err)
		}
		gates = append(gates, g)
	}
	return gates, nil
}

func (a *app) evalCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "eval",
		Short: "Score routing, retrieval, answers and rejection on JSONL datasets",
		Long: `Score graphrag on evaluation data: how well it routes questions, how well it
retrieves the passages that answer them, how good its answers are, and whether
it says "nothing found" when nothing is there. With no dataset flags it uses
the bundled set (HotpotQA and XQuAD passages and questions, CLINC150 and
NL2Bash routing rows, and graphrag's own rows; see evals/datasets).

Thresholds (--min-*, --max-*, --gate) make it exit 1 when a figure is off,
for CI.`,
	}
	cmd.AddCommand(a.evalRoutingCmd(), a.evalRAGCmd(), a.evalDocsCmd())
	return cmd
}

func (a *app) evalRoutingCmd() *cobra.Command {
	var (
		f                   evalFlags
		datasets, questions []string
		cv                  string
	)
	cmd := &cobra.Command{
		Use:   "routing",
		Short: "Score the router: accuracy, macro-F1, confusion matrix, on hard rows and all rows",
		Example: `  graphrag eval routing
  graphrag eval routing --dataset my-routes.jsonl --store ~/.local/share/graphrag/graphrag.db
  graphrag eval routing --ablate --markdown routing.md --min-coarse-accuracy 0.95
  graphrag eval routing --cv source`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			cfg := evals.RoutingConfig{Datasets: datasets, Questions: questions, Concurrency: f.concurrency, CV: cv}
			if len(cfg.Datasets) == 0 {
				cfg.Datasets = evals.BundledRouting
			}
			if len(cfg.Questions) == 0 && len(datasets) == 0 {
				cfg.Questions = evals.BundledQuestions
			}
			r, err := a.prepareEval(cmd, &f, evals.BundledRoutingCorpus, true)
			if err != nil {
				return err
			}
			defer r.close()
			cfg.Searcher, cfg.Open, cfg.Corpus, cfg.Deps, cfg.Variants, cfg.Progress = r.searcher, r.open, r.corpus, r.deps, r.variants, r.bar.update
			rep, err := evals.RunRouting(ctx, cfg)
			r.bar.finish()
			if err != nil {
				return err
			}
			return a.evalReport(cmd.OutOrStdout(), &f, rep)
		},
	}
	cmd.Flags().StringSliceVar(&datasets, "dataset", nil, "routing JSONL: query, route, optional label_strength (default: the bundled rows)")
	cmd.Flags().StringSliceVar(&questions, "questions", nil, "RAG question JSONL whose rows count as local (default with the bundled rows: the bundled questions)")
	cmd.Flags().StringVar(&cv, "cv", "", `cross-validate: "source" trains the router without each training source (CLINC150, NL2Bash, graphrag's exemplars) in turn and scores it on that source's rows (takes about a minute)`)
	f.bind(cmd, map[string]string{
		"min-accuracy":        "routing.accuracy",
		"min-coarse-accuracy": "routing.coarse_accuracy",
		"min-hard-accuracy":   "routing.hard.accuracy",
		"min-hard-coarse":     "routing.hard.coarse_accuracy",
		"min-macro-f1":        "routing.macro_f1",
	}, nil)
	return cmd
}

func (a *app) evalRAGCmd() *cobra.Command {
	var (
		f                    evalFlags
		questions, negatives []string
		k, limit             int
	)
	cmd := &cobra.Command{
		Use:   "rag",
		Short: "Score the whole graph: recall@k, MRR, nDCG, EM/F1, abstention, latency, LLM calls",
		Example: `  graphrag eval rag
  graphrag eval rag --corpus corpus.jsonl --questions questions.jsonl --negatives negatives.jsonl
  graphrag eval rag --ablate --json > new.json && graphrag eval rag --compare old.json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			cfg := evals.RAGConfig{Questions: questions, Negatives: negatives, K: k, MaxQuestions: limit, MaxNegatives: limit, Concurrency: f.concurrency}
			if len(cfg.Questions) == 0 {
				cfg.Questions = evals.BundledQuestions
				if len(cfg.Negatives) == 0 {
					cfg.Negatives = evals.BundledNegatives
				}
			}
			r, err := a.prepareEval(cmd, &f, evals.BundledCorpus, false)
			if err != nil {
				return err
			}
			defer r.close()
			cfg.Searcher, cfg.Open, cfg.Corpus, cfg.Deps, cfg.Variants, cfg.Progress = r.searcher, r.open, r.corpus, r.deps, r.variants, r.bar.update
			rep, err := evals.RunRAG(ctx, cfg)
			r.bar.finish()
			if err != nil {
				return err
			}
			return a.evalReport(cmd.OutOrStdout(), &f, rep)
		},
	}
	cmd.Flags().StringSliceVar(&questions, "questions", nil, "answerable questions JSONL: qid, question, answers, gold_passages, type (default: the bundled dev questions)")
	cmd.Flags().StringSliceVar(&negatives, "negatives", nil, "unanswerable questions JSONL (default with the bundled questions: the bundled negatives)")
	cmd.Flags().IntVar(&k, "k", 10, "cut-off of recall@k and both-gold@k")
	cmd.Flags().IntVar(&limit, "limit", 0, "score an evenly spaced subset of this many questions and negatives (0: all)")
	f.bind(cmd, map[string]string{
		"min-recall":    "retrieval.recall@10",
		"min-both-gold": "retrieval.both_gold@10",
		"min-mrr":       "retrieval.mrr",
		"min-f1":        "answers.f1",
		"min-abstain":   "rejection.abstain_rate",
	}, map[string]string{
		"max-false-abstain": "rejection.false_abstain_rate",
	})
	return cmd
}

// evalSetup is what both eval commands prepare: where to search, the
// models, the variants and the progress bar.
type evalSetup struct {
	searcher nodes.Searcher
	open     evals.OpenStore
	corpus   []string
	deps     nodes.Deps
	variants []evals.Variant
	bar      *evalBar
	close    func()
}

// prepareEval builds the models and decides where an eval searches: an
// existing store given with --store (ingesting --corpus into it when given),
// or a fresh temporary store holding the corpus (the bundled one by default).
func (a *app) prepareEval(cmd *cobra.Command, f *evalFlags, bundled []string, routing bool) (*evalSetup, error) {
	ctx := cmd.Context()
	m, emb, err := a.models(ctx)
	if err != nil {
		return nil, err
	}
	r := &evalSetup{bar: a.evalProgress(), close: func() {}}
	modelDeps(m, &r.deps)
	if r.variants, err = f.variants(routing, m != nil); err != nil {
		return nil, err
	}
	if !cmd.Flags().Changed("store") && a.getenv("GRAPHRAG_STORE") == "" {
		r.corpus = f.corpus
		if len(r.corpus) == 0 {
			r.corpus = bundled
		}
		r.open = evals.TempSQLite("", sqlite.Options{Embedder: emb})
		return r, nil
	}
	st, err := a.openStore(ctx, emb, len(f.corpus) > 0)
	if err != nil {
		return nil, err
	}
	if len(f.corpus) == 0 {
		r.searcher, r.close = st, func() { st.Close() }
		return r, nil
	}
	// The runner ingests the corpus into the store it opens, and closes it.
	r.open = func(context.Context) (evals.Store, error) { return st, nil }
	r.corpus = f.corpus
	return r, nil
}

func (a *app) evalReport(out io.Writer, f *evalFlags, rep *evals.Report) error {
	gates, err := f.checks()
	if err != nil {
		return err
	}
	if f.json {
		if err := evals.WriteJSON(out, rep); err != nil {
			return err
		}
	} else if err := evals.WriteTable(out, rep); err != nil {
		return err
	}
	if f.markdown != "" {
		files, err := evals.WriteMarkdownFile(f.markdown, rep)
		if err != nil {
			return fmt.Errorf("--markdown: %w", err)
		}
		a.notify("wrote " + strings.Join(files, ", "))
	}
	if f.compare != "" {
		old, err := readReport(f.compare)
		if err != nil {
			return err
		}
		w := out
		if f.json {
			w = a.io.err
		}
		fmt.Fprintf(w, "\nChanges against %s\n", f.compare)
		if err := evals.WriteCompare(w, evals.Compare(old, rep), false); err != nil {
			return err
		}
	}
	if fails := evals.Check(rep, gates...); len(fails) > 0 {
		msgs := make([]string, len(fails))
		for i, fl := range fails {
			msgs[i] = fmt.Sprint(fl)
		}
		return &exitError{code: 1, err: fmt.Errorf("thresholds not met:\n  %s", strings.Join(msgs, "\n  "))}
	}
	return nil
}

func readReport(path string) (*evals.Report, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("--compare: %w", err)
	}
	defer fh.Close()
	r, err := evals.ReadJSON(fh)
	if err != nil {
		return nil, fmt.Errorf("--compare %s: %w", path, err)
	}
	return r, nil
}

// evalBar draws a progress bar per phase on a terminal.
type evalBar struct {
	w     io.Writer
	on    bool
	phase string
	bar   *progressbar.ProgressBar
}

func (a *app) evalProgress() *evalBar {
	return &evalBar{w: a.io.err, on: !a.quiet && isTerminal(a.io.err)}
}

func (b *evalBar) update(p evals.Progress) {
	if !b.on {
		return
	}
	if b.bar == nil || p.Phase != b.phase {
		b.finish()
		b.phase = p.Phase
		b.bar = progressbar.NewOptions(p.Total, progressbar.OptionSetWriter(b.w), progressbar.OptionSetDescription(p.Phase),
			progressbar.OptionShowCount(), progressbar.OptionClearOnFinish(), progressbar.OptionThrottle(100_000_000))
	}
	_ = b.bar.Set(p.Done)
}

func (b *evalBar) finish() {
	if b.bar != nil {
		_ = b.bar.Finish()
		b.bar = nil
	}
}
