// Package pgvector is graphrag's PostgreSQL + pgvector store: the backend for
// corpora that outgrow one process, and the one a team runs as a service.
package pgvector
