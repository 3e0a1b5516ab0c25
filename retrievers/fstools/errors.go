package fstools

import (
	"errors"

	"github.com/graphrag/graphrag"
)

// Errors returned by the tools; match them with errors.Is. A missing file
// wraps graphrag.ErrNotFound and a bad pattern graphrag.ErrInvalidQuery.
var (
	// ErrOutsideRoots: a path (or a symbolic link's target) is outside the
	// ingested directories, or uses "..".
	ErrOutsideRoots = errors.New("outside the ingested directories")
	// ErrNoRoots: New was given no usable directory.
	ErrNoRoots = errors.New("no ingested directories to look in")
)

// Aliases of the shared errors, for brevity inside the package.
var (
	errNotFound = graphrag.ErrNotFound
	errInvalid  = graphrag.ErrInvalidQuery
)
