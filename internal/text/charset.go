package text

import (
	"bytes"
	"regexp"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"
)

// SniffBytes is how much of a file IsText and Decode look at to tell text
// from binary content: 8 KiB, the first block of a file, as file(1) and
// git read a file's head for the same decision.
const SniffBytes = 8192

// maxControlPercent is the largest share, in percent, of control
// characters (other than tab, line and form feed, carriage return) that
// text may hold: a stray escape or backspace in a log is text, a binary
// format is not.
const maxControlPercent = 1

// maxHighShare is the largest share of bytes >= 0x80 in text that is not
// UTF-8 and is still read as Windows-1252 (a superset of Latin-1's
// printable characters): Western European prose has a few percent
// (accented letters), compressed or binary data about half.
const maxHighShare = 0.3

// ansiEscape matches terminal escape sequences: CSI (colours, cursor
// moves) and OSC (titles, links), as coloured logs carry them.
var ansiEscape = regexp.MustCompile("\x1b(?:\\[[0-9;?]*[ -/]*[@-~]|\\][^\x07\x1b]*(?:\x07|\x1b\\\\)|[@-Z\\\\-_])")

// Decode returns data as UTF-8 text: UTF-8 (a byte-order mark dropped),
// UTF-16 with a byte-order mark, or Windows-1252/Latin-1 when it is not
// valid UTF-8 but reads as Western text; terminal colour codes are
// removed, and what invalid UTF-8 remains becomes U+FFFD. ok is false for
// binary content.
func Decode(data []byte) (text string, ok bool) {
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
	if IsText(data) {
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

// IsText reports whether data looks like UTF-8 text: its first SniffBytes
// are valid UTF-8 (a multi-byte rune cut by the sample is fine) with no NUL
// byte and few control characters.
func IsText(data []byte) bool {
	sample := data[:min(len(data), SniffBytes)]
	return IsTextSample(sample, len(sample) < len(data))
}

// IsTextSample is IsText for sample, the first bytes of a content; more
// says the content goes on after it, so a rune cut at its end is fine.
func IsTextSample(sample []byte, more bool) bool {
	if bytes.IndexByte(sample, 0) >= 0 {
		return false
	}
	ctrl := 0
	for i := 0; i < len(sample); {
		r, n := utf8.DecodeRune(sample[i:])
		if r == utf8.RuneError && n == 1 {
			if len(sample)-i < utf8.UTFMax && more {
				break // a rune cut by the sample
			}
			return false
		}
		if r < 0x20 && r != '\n' && r != '\r' && r != '\t' && r != '\f' {
			ctrl++
		}
		i += n
	}
	return ctrl*100 <= maxControlPercent*len(sample)
}

// isLatin1 reports whether data (not valid UTF-8) looks like single-byte
// Western text: no NUL, few control characters, and a small share of
// bytes >= 0x80.
func isLatin1(data []byte) bool {
	sample := data[:min(len(data), SniffBytes)]
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
	return ctrl*100 <= maxControlPercent*len(sample) && float64(high) <= maxHighShare*float64(len(sample))
}
