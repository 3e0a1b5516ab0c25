// Package ingest walks files and directories into a graphrag store:
// walk -> load (text, Markdown, HTML, PDF, source code; JSONL corpora one
// document per line) -> chunk -> embed (optional) -> store.
//
// Ingest is incremental: each document carries the SHA-256 of its content,
// so on a second run unchanged documents are skipped, changed ones
// replaced and those that disappeared from under the given paths deleted.
// Binary, empty, oversized and unreadable files, hidden files and
// directories (and node_modules), and symbolic links are skipped and
// counted in the Summary with the reason; a bad JSONL line is reported with
// its line number and skipped.
//
// Writes go to the store in batches of whole documents, each batch one
// atomic Put, so cancelling the context (Ctrl-C) stops between batches and
// leaves nothing half written; the next run picks up where it stopped.
package ingest
