//go:build !unix

package ingest

import "os"

// openNonBlocking opens path read-only; these systems have no FIFOs that
// block open.
func openNonBlocking(path string) (*os.File, error) { return os.Open(path) }
