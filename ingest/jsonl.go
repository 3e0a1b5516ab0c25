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

// parseCorpus streams a JSONL corpus: one JSON object per line with a
// string (or number) "id", a string "text" and an optional "title"; other
// scalar fields go into the document's metadata. Each good row goes to
// row, each bad line to bad with its line number; blank lines are ignored.
// It stops early when row returns false.
func parseCorpus(path string, r io.Reader, row func(corpusRow) bool, bad func(Problem)) {
	seen := map[string]int{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 64<<20)
	n := 0
	for sc.Scan() {
		n++
		line := bytes.TrimSpace(sc.Bytes())
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
			bad(Problem{Path: path, Line: n, Reason: ReasonBadLine, Detail: err.Error()})
			continue
		}
		rw.line = n
		seen[rw.id] = n
		if !row(rw) {
			return
		}
	}
	if err := sc.Err(); err != nil {
		bad(Problem{Path: path, Line: n + 1, Reason: ReasonBadLine, Detail: err.Error()})
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
