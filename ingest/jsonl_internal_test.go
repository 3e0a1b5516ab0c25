package ingest

import (
	"bufio"
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/graphrag/graphrag"
)

func TestLineReader(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		max      int
		want     []string // "!" marks a line reported too long
	}{
		{"plain", "a\nbb\nccc\n", 10, []string{"a", "bb", "ccc"}},
		{"no final newline", "a\nbb", 10, []string{"a", "bb"}},
		{"blank lines kept", "a\n\nb\n", 10, []string{"a", "", "b"}},
		{"long line in the middle", "a\n0123456789AB\nb\n", 10, []string{"a", "!", "b"}},
		{"long last line without newline", "a\n0123456789AB", 10, []string{"a", "!"}},
		{"exactly max", "0123456789\nx\n", 10, []string{"0123456789", "x"}},
		{"longer than the buffer", "a\n" + strings.Repeat("y", 40) + "\nb\n", 30, []string{"a", "!", "b"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// A 16-byte buffer makes long lines arrive in fragments.
			lr := lineReader{r: bufio.NewReaderSize(strings.NewReader(tc.in), 16), max: tc.max}
			var got []string
			for {
				line, tooLong, err := lr.next()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				if tooLong {
					got = append(got, "!")
				} else {
					got = append(got, string(line))
				}
			}
			if strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Errorf("lines %q, want %q", got, tc.want)
			}
		})
	}
}

// A read error in the middle of a corpus keeps every row stored from it:
// the rows after the error were not seen, which does not mean they are gone.
func TestCorpusReadErrorKeepsStoredRows(t *testing.T) {
	body := `{"id": "r1", "text": "one"}` + "\n" + `{"id": "r2", "text": "two"}` + "\n" + `{"id": "r3", "te`
	r := io.MultiReader(strings.NewReader(body), iotest.ErrReader(errors.New("input/output error")))
	in := New(nil, Options{})
	var results []fileResult
	stored := map[string]graphrag.DocState{}
	ok := in.processCorpus(context.Background(), file{path: "/x/c.jsonl"}, r, stored, func(fr fileResult) bool {
		results = append(results, fr)
		return true
	})
	if !ok || len(results) == 0 {
		t.Fatalf("processCorpus ok=%v, %d results", ok, len(results))
	}
	last := results[len(results)-1]
	if !last.final || !last.keepPath {
		t.Errorf("final=%v keepPath=%v after a read error, want both true", last.final, last.keepPath)
	}
	var seen []string
	for _, fr := range results {
		seen = append(seen, fr.seen...)
	}
	if strings.Join(seen, ",") != "/x/c.jsonl#r1,/x/c.jsonl#r2" {
		t.Errorf("seen %v, want the two whole rows before the error (not the partial third)", seen)
	}
	if len(last.problems) != 1 || last.problems[0].Reason != ReasonUnreadable {
		t.Errorf("problems %+v, want one unreadable", last.problems)
	}
}
