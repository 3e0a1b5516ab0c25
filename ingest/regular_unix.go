//go:build unix

package ingest

import (
	"os"
	"syscall"
)

// openNonBlocking opens path read-only with O_NONBLOCK: opening a FIFO
// with no writer returns at once instead of waiting for one. On a regular
// file the flag changes nothing.
func openNonBlocking(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
