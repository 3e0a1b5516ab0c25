// Package pgvector is graphrag's PostgreSQL + pgvector store: the backend for
// corpora that outgrow one process, and the one a team runs as a service.
//
// The schema lives in package migrations and is applied explicitly with
// Migrate (`graphrag migrate up`); Open never changes the schema. One
// database (one schema, default "graphrag") holds several collections; each
// collection records the embedder that built it and its dimension, and gets
// its own partial HNSW index (vector_cosine_ops) over embedding::vector(dim).
//
// Search runs keyword (tsvector; an OR of the query's words, ranked by
// ts_rank_cd times their coverage weighted by inverse document frequency
// from the per-collection lexeme_df table that Put and Delete maintain),
// vector (HNSW, cosine) or hybrid search, the hybrid as one SQL statement
// whose two CTEs are fused by reciprocal rank fusion; every value is a $n
// parameter. Put writes whole documents in one transaction with CopyFrom,
// under a per-collection advisory lock.
//
// Tests need a PostgreSQL with pgvector: run scripts/db-up.sh and export the
// URL it prints as GRAPHRAG_TEST_DATABASE_URL.
package pgvector
