package graphrag

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// ErrInvalidDocID: a document ID that no store can keep exactly as given.
// Stores refuse it in Put; an ingest skips that document and goes on.
var ErrInvalidDocID = errors.New("invalid document id")

// MaxDocIDBytes bounds a document ID. PostgreSQL's B-tree index holds at
// most 2,704 bytes per entry (a third of an 8 KiB page), and a chunk's ID
// is its document's ID plus "#n": 2,048 leaves room for both. Longer paths
// than this are rare even on Linux (PATH_MAX is 4,096).
const MaxDocIDBytes = 2048

// CheckDocID reports whether id can be stored by every graphrag store and
// read back unchanged: not empty, valid UTF-8 (a file name in Latin-1 is
// not), no NUL byte, at most MaxDocIDBytes. An ID cannot be repaired the
// way text is: a changed ID would no longer match the file or row it
// names on the next ingest. The error matches ErrInvalidDocID and says why.
func CheckDocID(id string) error {
	switch {
	case id == "":
		return fmt.Errorf("%w: empty", ErrInvalidDocID)
	case !utf8.ValidString(id):
		return fmt.Errorf("%w: %q is not valid UTF-8 (rename the file with UTF-8 characters, e.g. convmv -f latin1 -t utf8)", ErrInvalidDocID, id)
	case strings.IndexByte(id, 0) >= 0:
		return fmt.Errorf("%w: %q contains a NUL byte", ErrInvalidDocID, id)
	case len(id) > MaxDocIDBytes:
		return fmt.Errorf("%w: %.64q... is %d bytes, more than %d", ErrInvalidDocID, id, len(id), MaxDocIDBytes)
	}
	return nil
}
