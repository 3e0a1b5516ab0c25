package ingest

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// errNotRegular: the path is a FIFO, socket, device or directory, which
// ingest never reads (a FIFO would block open or read forever).
var errNotRegular = errors.New("not a regular file")

// openRegular opens path for reading only if it is a regular file. The
// open itself does not block on a FIFO (openNonBlocking), and the type is
// checked on the open descriptor, so a file swapped for a FIFO between the
// walk and the open is refused too, not waited on.
func openRegular(path string) (*os.File, error) {
	fh, err := openNonBlocking(path)
	if err != nil {
		return nil, err
	}
	fi, err := fh.Stat()
	if err != nil {
		fh.Close()
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		fh.Close()
		return nil, fmt.Errorf("%w (%s)", errNotRegular, fileKind(fi.Mode()))
	}
	return fh, nil
}

// fileKind names the type of a non-regular file for a Problem's detail.
func fileKind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "named pipe"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeDevice != 0, m&fs.ModeCharDevice != 0:
		return "device"
	case m.IsDir():
		return "directory"
	case m&fs.ModeSymlink != 0:
		return "symbolic link"
	}
	return "irregular file"
}
