package ingest

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
)

// corpusRow is one parsed JSONL line.
type corpusRow struct {
	line  int
	id    string
	title string
	text  string
	meta  map[string]string
	hash  string
}

// isCorpusExt reports whether files with this extension are JSONL corpora.
func isCorpusExt(ext string) bool { return ext == "jsonl" || ext == "ndjson" }

// maxCorpusLine is the longest JSONL line parseCorpus reads; a longer
// line is skipped with a reason and reading goes on at the next line.
// 64 MiB is far above any sensible row and bounds the memory of one.
const maxCorpusLine = 64 << 20

// corpusRead is what parseCorpus reports once the input is consumed.
type corpusRead struct {
	// unknown counts bad lines whose id could not be read (not JSON, too
	// long): the rows stored from this file may be among them, so none of
	// them may be taken for deleted.
	unknown int
	// badIDs are the ids of lines that were read but refused (no text,
	// duplicate id): the stored versions of those rows stay.
	badIDs []string
	// err is a read error that stopped the parse before the end.
	err error
}

// parseCorpus streams a JSONL corpus: one JSON object per line with a
// string (or number) "id", a string "text" and an optional "title"; other
// scalar fields go into the document's metadata. Each good row goes to
// row, each bad line to bad with its line number; blank lines are ignored.
// A bad line never ends the parse: it is skipped and the next line read.
// It stops early when row returns false, and at a read error.
func parseCorpus(path string, r io.Reader, row func(corpusRow) bool, bad func(Problem)) (res corpusRead) {
	seen := map[string]int{}
	lr := lineReader{r: bufio.NewReaderSize(r, 64<<10), max: maxCorpusLine}
	n := 0
	for {
		raw, tooLong, err := lr.next()
		if err != nil {
			if err != io.EOF {
				res.err = err
				bad(Problem{Path: path, Line: n + 1, Reason: ReasonUnreadable, Detail: errDetail(err)})
			}
			return res
		}
		n++
		if tooLong {
			res.unknown++
			bad(Problem{Path: path, Line: n, Reason: ReasonBadLine, Detail: fmt.Sprintf("line longer than %d MiB: skipped", maxCorpusLine>>20)})
			continue
		}
		line := bytes.TrimSpace(raw)
		if len(line) == 0 {
			continue
		}
		rw, err := parseRow(line)
		if err == nil {
			if prev, dup := seen[rw.id]; dup {
				err = fmt.Errorf("id %q already on line %d", rw.id, prev)
			}
		}
		if err != nil {
			if rw.id != "" {
				res.badIDs = append(res.badIDs, rw.id)
			} else {
				res.unknown++
			}
			bad(Problem{Path: path, Line: n, Reason: ReasonBadLine, Detail: err.Error()})
			continue
		}
		rw.line = n
		seen[rw.id] = n
		if !row(rw) {
			return res
		}
	}
}

func parseRow(line []byte) (corpusRow, error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(line, &obj); err != nil {
		return corpusRow{}, fmt.Errorf("not a JSON object: %v", err)
	}
	var r corpusRow
	id, ok := obj["id"]
	if !ok {
		return r, fmt.Errorf(`no "id" field`)
	}
	var err error
	if r.id, err = scalar(id); err != nil || strings.TrimSpace(r.id) == "" {
		return r, fmt.Errorf(`"id" must be a non-empty string or number`)
	}
	text, ok := obj["text"]
	if !ok {
		return r, fmt.Errorf(`no "text" field`)
	}
	if err := json.Unmarshal(text, &r.text); err != nil {
		return r, fmt.Errorf(`"text" must be a string`)
	}
	if strings.TrimSpace(r.text) == "" {
		return r, fmt.Errorf(`"text" is empty`)
	}
	if t, ok := obj["title"]; ok {
		if err := json.Unmarshal(t, &r.title); err != nil {
			return r, fmt.Errorf(`"title" must be a string`)
		}
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		if k != "id" && k != "text" && k != "title" {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	h := sha256.New()
	for _, s := range []string{r.id, r.title, r.text} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	for _, k := range keys {
		v, err := scalar(obj[k])
		if err != nil {
			continue // nested values are not metadata
		}
		if r.meta == nil {
			r.meta = map[string]string{}
		}
		r.meta[k] = v
		h.Write([]byte(k + "\x00" + v + "\x00"))
	}
	r.hash = hex.EncodeToString(h.Sum(nil))
	return r, nil
}

// scalar renders a JSON string, number or boolean as text.
func scalar(raw json.RawMessage) (string, error) {
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return "", err
	}
	switch x := v.(type) {
	case string:
		return x, nil
	case json.Number:
		return x.String(), nil
	case bool:
		return fmt.Sprint(x), nil
	}
	return "", fmt.Errorf("not a scalar")
}

// lineReader reads lines of at most max bytes; a longer line is consumed
// to its end and reported as too long instead of returned.
type lineReader struct {
	r   *bufio.Reader
	max int
	buf []byte
	err error // sticky: once reading failed, every later call says so
}

// next returns the next line without its newline. The last line of the
// input may lack a newline; after it next returns nil and io.EOF, or the
// read error that stopped it.
func (lr *lineReader) next() (line []byte, tooLong bool, err error) {
	if lr.err != nil {
		return nil, false, lr.err
	}
	lr.buf = lr.buf[:0]
	for {
		frag, err := lr.r.ReadSlice('\n')
		if !tooLong {
			if len(lr.buf)+len(frag) > lr.max+1 { // +1: the newline
				tooLong, lr.buf = true, lr.buf[:0]
			} else {
				lr.buf = append(lr.buf, frag...)
			}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			lr.err = err
			if err != io.EOF {
				return nil, false, err // a partial line is not a line
			}
			if tooLong || len(lr.buf) > 0 {
				return lr.buf, tooLong, nil
			}
			return nil, false, err
		}
		return bytes.TrimSuffix(lr.buf, []byte{'\n'}), tooLong, nil
	}
}
