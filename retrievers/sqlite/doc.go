// Package sqlite is graphrag's embedded default store: one SQLite file
// (through modernc.org/sqlite, pure Go, no cgo) holding documents, chunks,
// a full-text index and embeddings.
//
// Keyword search is FTS5 BM25 over two columns, title and text, with the
// title weighted higher, tokenised by unicode61 with diacritics removed so
// that non-English text works. The user's text never reaches FTS5 syntax:
// it is split into words, stop words are dropped, and every word is quoted
// and OR-ed. The best BM25 candidates are then re-scored in Go with
// proximity and title-match evidence, and the documents whose titles the
// top chunks mention are brought in (title links: the second hop of a
// multi-hop question). DefaultRanking records the figures behind each step,
// measured by eval_test.go on the dev set.
//
// Vector search is exact: every embedding is held in one contiguous
// []float32 matrix, loaded on first use and dropped on every write, and
// scanned in Go. Hybrid search fuses the keyword and vector lists by
// reciprocal rank fusion (k = 60), keeping each hit's rank in both lists.
//
// Every Put is one transaction, so a crash mid-ingest loses nothing that was
// committed and leaves no half document. The file records the embedder
// (name and dimension) that built it and refuses another with an error
// wrapping graphrag.ErrEmbedderMismatch. The schema is created when a new
// file is opened and versioned with PRAGMA user_version; a file written by a
// newer graphrag is refused rather than misread.
package sqlite
