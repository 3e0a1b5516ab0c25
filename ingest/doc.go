// Package ingest walks files and directories into a graphrag store:
// walk -> load (text, Markdown, reStructuredText, HTML, manual pages, PDF,
// docx, odt, epub, source code; JSONL corpora one document per line) ->
// sections -> chunk -> embed (optional) -> store.
//
// Ingest is incremental: each document carries the SHA-256 of its content,
// so on a second run unchanged documents are skipped, changed ones
// replaced and those that disappeared from under the given paths deleted.
// Binary, empty, oversized and unreadable files, hidden files and
// directories, and symbolic links are skipped and counted in the Summary
// with the reason; a bad JSONL line is reported with its line number and
// skipped.
//
// # What is skipped
//
// Every directory walked skips DefaultIgnore (vendor/, testdata/,
// node_modules/, ...) and the gitignore-syntax patterns of its
// .graphragignore file (IgnoreFile), where a "!" line takes a path back;
// an ignored directory is reported once (ReasonIgnored). Files compressed
// with anything but gzip are ReasonCompressed, archives (zip, tar, 7z,
// rar) ReasonArchive.
//
// # Formats
//
// A gzip file is read as the file it holds (NEWS.gz, pg_dump.1.gz), its
// decompressed size capped by MaxFileSize (a bomb is skipped as too
// large). Text that is not UTF-8 is read as Windows-1252 (Latin-1) when it
// looks like Western text; terminal colour codes are removed from logs.
// Manual pages (roff, .1 to .9) are rendered as text; PDF text gets its
// word spaces from glyph positions; docx, odt and epub are read from their
// XML, each part and the whole capped.
//
// # Chunks
//
// A file is cut into sections that chunks never straddle, and each chunk
// records its Heading, Symbol, Kind and line range (graphrag.Chunk):
//   - Go: one section per top-level declaration with its doc comment
//     (go/parser), Symbol "pkg.Name" or "pkg.Type.Method"; a comment
//     that documents no declaration (a file's header, a note between
//     declarations) is a section of kind "comment", and the file's
//     "//go:build" line one of kind "build" (not "//go:build ignore");
//     licence headers and imports are left out.
//   - Python, JavaScript/TypeScript, C, Rust, Java, shell: one section per
//     top-level definition, found by a light heuristic (codeLangs).
//   - Markdown, reStructuredText, HTML, manual pages, docx, odt, epub: one
//     section per heading, Heading the path of titles ("Install > From
//     source"); a heading with nothing under it leads the next section.
//
// Inside a section, chunks are cut between paragraphs, then lines, keeping
// newlines and indentation, and a paragraph ending in ':' stays with the
// code block or list after it.
//
// Documents that are tests, test fixtures, vendored or generated code get
// Metadata[RoleKey] (RoleTest, RoleTestdata, RoleVendor, RoleGenerated),
// from their path or content, so search can rank the definitions first.
// A Go bundle (golang.org/x/tools/cmd/bundle's copy of another module's
// package) is vendored code.
//
// # Images
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
