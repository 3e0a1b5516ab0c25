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
// are scored the same way; only cmd/graphrag reads flags.
package evals
