package ingest

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Skip reasons of compressed files and archives.
const (
	// ReasonCompressed: compressed with a method ingest does not read
	// (xz, bzip2, zstd...); only gzip is decompressed.
	ReasonCompressed = "compressed: format not supported"
	// ReasonArchive: an archive of several files (zip, tar, 7z, rar).
	ReasonArchive = "archive: not supported"
)

// errBomb: a gzip stream that decompresses past the size limit.
var errBomb = errors.New("decompressed size over the limit")

// isGzip reports whether data starts with gzip's magic number.
func isGzip(data []byte) bool {
	return len(data) >= 3 && data[0] == 0x1f && data[1] == 0x8b && data[2] == 8
}

// gunzip decompresses a gzip file (all its members) up to limit bytes; a
// stream that decompresses to more is refused with errBomb before more
// than limit+1 bytes are held.
func gunzip(data []byte, limit int64) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("gzip: %w", err)
	}
	defer zr.Close()
	out, err := io.ReadAll(io.LimitReader(zr, limit+1))
	if err != nil {
		return nil, fmt.Errorf("gzip: %w", err)
	}
	if int64(len(out)) > limit {
		return nil, errBomb
	}
	return out, nil
}

// containerKind names the compression or archive format data is in, by
// its magic number; archive is true for formats that hold several files.
// "" when it is none of them.
func containerKind(data []byte) (kind string, archive bool) {
	magic := []struct {
		prefix  string
		kind    string
		archive bool
	}{
		{"\xfd7zXZ\x00", "xz", false},
		{"BZh", "bzip2", false},
		{"\x28\xb5\x2f\xfd", "zstd", false},
		{"\x5d\x00\x00", "lzma", false},
		{"\x04\x22\x4d\x18", "lz4", false},
		{"7z\xbc\xaf\x27\x1c", "7z", true},
		{"PK\x03\x04", "zip", true},
		{"Rar!\x1a\x07", "rar", true},
	}
	for _, m := range magic {
		if strings.HasPrefix(string(data[:min(len(data), 8)]), m.prefix) {
			if m.kind == "bzip2" && (len(data) < 4 || data[3] < '1' || data[3] > '9') {
				continue
			}
			return m.kind, m.archive
		}
	}
	if len(data) > 262 && string(data[257:262]) == "ustar" {
		return "tar", true
	}
	return "", false
}

// containerExts are the extensions whose loaders read a zip or other
// container themselves.
var containerExts = map[string]bool{"pdf": true, "docx": true, "odt": true, "epub": true}
