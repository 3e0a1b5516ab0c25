package graphrag

import "errors"

// Errors shared across stores and tools; match them with errors.Is.
var (
	// ErrEmbedderMismatch: the store was built with another embedder (or none).
	ErrEmbedderMismatch = errors.New("store was built with a different embedder")
	// ErrInvalidQuery: a query or filter that cannot be run.
	ErrInvalidQuery = errors.New("invalid query")
	// ErrNotConfigured: a capability (web search, a language model, ...) is off.
	ErrNotConfigured = errors.New("not configured")
	// ErrNotFound: no such document or collection.
	ErrNotFound = errors.New("not found")
	// ErrUnavailable: a backing service (a language model server) cannot
	// be reached. Errors of the llm package for an unreachable server match
	// it, so callers can stop asking without importing llm.
	ErrUnavailable = errors.New("service unavailable")
)
