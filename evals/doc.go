// Package evals is graphrag's evaluation harness: it scores the router,
// retrieval, answers and rejection of the RAG graph on JSONL datasets, and
// turns the figures into terminal tables, JSON, Markdown with SVG charts,
// deltas between two runs and pass/fail gates for CI.
//
// The pieces, each usable on its own:
//
//   - Datasets (dataset.go): readers for routing rows, RAG questions,
//     negative (unanswerable) questions and corpus rows. A bad row is
//     reported with file:line and a reason and skipped, never fatal.
//     Package evals/datasets embeds a default set.
//   - Metrics (metrics.go, answers.go): pure functions — accuracy, macro-F1,
//     confusion matrices, recall@k, MRR, nDCG, SQuAD exact match and F1,
//     percentiles.
//   - Runners (routing.go, rag.go): RunRouting and RunRAG score the real
//     router and the whole graph with bounded concurrency, in a
//     deterministic order, reporting progress. Variants (ablate.go) run
//     side by side in one report.
//   - Reports (report.go, table.go, markdown.go, svg.go, compare.go,
//     gate.go): the Report type, its renderings, Compare and Check.
//
// Configuration flows inward: the runners take a config struct with
// functions that open stores, so the embedded SQLite store and PostgreSQL
// are scored the same way; only cmd/graphrag reads flags. How the flags of
// `graphrag eval` map onto it:
//
//	eval routing --dataset F...   RoutingConfig.Datasets (default BundledRouting)
//	             --questions F... RoutingConfig.Questions, scored as local (default BundledQuestions)
//	             --corpus F...    Corpus + Open (a fresh store; default BundledRoutingCorpus, TempSQLite)
//	             --store S        Searcher (an existing store, no ingest), or Open with Corpus
//	eval rag     --questions F    RAGConfig.Questions (default BundledQuestions)
//	             --negatives F    Negatives (default BundledNegatives)
//	             --corpus F       Corpus + Open (default BundledCorpus, TempSQLite)
//	             --k N            K; --limit N: MaxQuestions, MaxNegatives
//	both         --ablate [a,b]   Variants: RoutingAblation (default, rules, learned, no-probe,
//	                              and with a Planner no-llm-router, llm-router), RAGAblation
//	                              or StandardVariants(names...)
//	             --concurrency N  Concurrency; the progress bar is Progress
//	             --json           WriteJSON; --markdown F: WriteMarkdownFile; default WriteTable
//	             --compare OLD    ReadJSON(OLD), Compare, WriteCompare
//	             --min-accuracy X Check(report, Min("routing.accuracy", X)) and so on;
//	                              a non-empty result means exit non-zero
//
// Gate metric names are those of Report.Metrics, e.g. routing.accuracy,
// routing.hard.coarse_accuracy, retrieval.recall@10, retrieval.mrr,
// answers.f1, answers.short_f1, rejection.abstain_rate,
// rejection.false_abstain_rate.
//
// Answers are scored twice. answers.em and answers.f1 (tables: "EM
// (answer)", "F1 (answer)") score the cited answer text a user reads, the
// well-defined figure; extractive answers are whole sentences, so they are
// low by construction, and "contains answer" and the oracle "best-span F1"
// put them in context. answers.short_em and answers.short_f1 ("EM (short)",
// "F1 (short)") score nodes.State.Short, the heuristic short answer (a name,
// a date, a number, yes or no) the graph extracts: comparable with SQuAD
// and HotpotQA figures, but only as good as that heuristic. A run with a
// language model adds Report.Model: model.extracted_em and
// model.extracted_f1 score the short answer ExtractShort reads from the
// model's sentence ("The answer is X [1]." → X), next to model calls per
// question (mean, p95), validate loops and the low-confidence share.
// `make eval-oracle` runs the model path with llmtest's oracle model.
package evals
