// Package storetest is the conformance suite every graphrag store passes
// (the embedded SQLite store and the PostgreSQL one), plus HashEmbedder, a
// deterministic embedder for tests.
//
// A store's test calls Run with two functions: one that opens a fresh,
// empty store with a given embedder (or none), and one that reopens the same
// store after it was closed, so the suite can check that a store refuses an
// embedder other than the one that built it.
//
// The contract the suite pins down, beyond the Store method set:
//
//   - Put is atomic: every record of the call with all its chunks, or none.
//     A record replaces any stored document with the same Doc.ID, leaving no
//     stale chunk. A record is invalid (and the whole Put fails) when its
//     Doc.ID is empty, a chunk names another document, two chunks share an
//     ordinal, a chunk's ID is not graphrag.ChunkID(Doc.ID, Ordinal), an
//     embedding has the wrong dimension, or two records share a Doc.ID.
//     Empty chunk IDs and DocIDs are filled in. Invalid UTF-8 and NUL bytes
//     in text are tolerated (stores may replace them).
//   - A store opened with an embedder computes missing chunk embeddings in
//     Put; a store opened without one ignores embeddings.
//   - Search with blank Text and no Vector fails with an error wrapping
//     graphrag.ErrInvalidQuery. Text with no searchable word (only
//     punctuation, say) returns no hits and no error. Any other text, however
//     hostile (FTS operators, quotes, SQL, 100 KB, invalid UTF-8), is searched
//     as plain words and never errors.
//   - K <= 0 means 10. Hits come best first with distinct chunk IDs.
//     Keyword Score is positive BM25 (higher better) and Ranks.Keyword is the
//     1-based position in the keyword list; vector Score is cosine
//     similarity; hybrid Score is the reciprocal-rank-fusion sum
//     1/(60+Ranks.Keyword) + 1/(60+Ranks.Vector), absent lists adding 0.
//   - Mode "" means hybrid for a store with an embedder, keyword otherwise.
//     A store without an embedder runs vector and hybrid queries as keyword
//     and says so in SearchResult.Mode and Note.
//   - Filters: Types match case-insensitively; Source is a case-insensitive
//     literal substring of the path or title (no wildcards); Since is
//     inclusive, Until exclusive; DocIDs keeps only those documents.
//   - Manifest lists every document sorted by ID.
//   - An empty store adopts the embedder it is opened with; a store holding
//     documents refuses any other (including none) with an error wrapping
//     graphrag.ErrEmbedderMismatch.
package storetest
