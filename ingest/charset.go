package ingest

import (
	"bytes"
	"regexp"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"
)

// maxHighShare is the largest share of bytes >= 0x80 in text that is not
// UTF-8 and is still read as Windows-1252 (a superset of Latin-1's
// printable characters): Western European prose has a few percent
// (accented letters), compressed or binary data about half.
const maxHighShare = 0.3

// ansiEscape matches terminal escape sequences: CSI (colours, cursor
// moves) and OSC (titles, links), as coloured logs carry them.
var ansiEscape = regexp.MustCompile("\x1b(?:\\[[0-9;?]*[ -/]*[@-~]|\\][^\x07\x1b]*(?:\x07|\x1b\\\\)|[@-Z\\\\-_])")

// decodeText returns data as UTF-8 text: UTF-8 (a BOM dropped), UTF-16
// with a BOM, or Windows-1252/Latin-1 when it is not valid UTF-8 but reads
// as Western text; terminal colour codes are removed. ok is false for
// binary content.
func decodeText(data []byte) (string, bool) {
	switch {
	case bytes.HasPrefix(data, []byte("\xef\xbb\xbf")):
		data = data[3:]
	case bytes.HasPrefix(data, []byte("\xff\xfe")) || bytes.HasPrefix(data, []byte("\xfe\xff")):
		out, err := unicode.UTF16(unicode.BigEndian, unicode.ExpectBOM).NewDecoder().Bytes(data)
		if err != nil || !utf8.Valid(out) {
			return "", false
		}
		data = out
	}
	if bytes.IndexByte(data, 0x1b) >= 0 {
		data = ansiEscape.ReplaceAll(data, nil)
	}
	if isText(data) {
		return strings.ToValidUTF8(string(data), "\uFFFD"), true
	}
	if !isLatin1(data) {
		return "", false
	}
	out, err := charmap.Windows1252.NewDecoder().Bytes(data)
	if err != nil {
		return "", false
	}
	return string(out), true
}

// isLatin1 reports whether data (not valid UTF-8) looks like single-byte
// Western text: no NUL, few control characters, and a small share of
// bytes >= 0x80.
func isLatin1(data []byte) bool {
	sample := data[:min(len(data), 8192)]
	if bytes.IndexByte(sample, 0) >= 0 {
		return false
	}
	ctrl, high := 0, 0
	for _, c := range sample {
		switch {
		case c < 0x20 && c != '\n' && c != '\r' && c != '\t' && c != '\f':
			ctrl++
		case c >= 0x80:
			high++
		}
	}
	return ctrl*100 <= len(sample) && float64(high) <= maxHighShare*float64(len(sample))
}
