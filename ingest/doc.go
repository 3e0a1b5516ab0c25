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
// Images (jpg, png, gif, webp, bmp, tiff) are described by an optional
// Captioner (a vision model) and stored as documents whose text is the
// caption and the file name; without one they are skipped under
// ReasonNoCaptioner. Captions are cached by content hash and captioner
// (CaptionCache, CaptionFile), so no image is captioned twice, whether
// ingested again, moved, copied or put in a new store. A failed caption
// skips its image, never the run.
//
// Nothing a file contains may hang ingest or exhaust memory: only regular
// files are opened (never a FIFO or device), each file's parse has a
// deadline (Options.ParseTimeout) and its text a cap
// (Options.MaxTextSize), and PDFs are parsed in a worker process — the
// running binary started again — that is killed at the deadline or on
// cancellation and runs with a memory budget (Options.ParseMemory). Page
// trees are walked with cycle and depth bounds, and page contents expand
// to at most Options.MaxDecompressedSize, before the PDF library sees the
// file. A file past a limit is skipped with the reason. See isolate.go for
// the trade-off of the worker process.
//
// Memory is bounded by Options.MaxBytesInFlight (default 64 MiB): the
// bytes of files read and not yet written, summed over the workers; a
// larger file is ingested alone. Text is chunked 1 MiB at a time. The Go
// heap of an ingest peaks near 6 bytes per byte in flight (6.2 for one
// 20 MB log file: go test ./ingest -run '^$' -bench LargeFilePeakHeap
// -benchtime 1x), so about 400 MB at the defaults, plus the collector's
// headroom (GOGC) and the store's own memory. JSONL corpora stream, a part
// of at most 256 rows or 8 MiB of text at a time. PDF worker processes
// have their own budget, Options.ParseMemory (512 MiB), at most Workers of
// them at once.
//
// Writes go to the store in batches of whole documents, each batch one
// atomic Put, so cancelling the context (Ctrl-C) stops between batches and
// leaves nothing half written; the next run picks up where it stopped.
package ingest
