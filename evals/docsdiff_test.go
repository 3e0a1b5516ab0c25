package evals

import (
	"bytes"
	"slices"
	"strings"
	"testing"
)

func TestCompareDocs(t *testing.T) {
	before := &DocsReport{Results: []DocsResult{
		{ID: "a", Correct: false, Answer: "x"},
		{ID: "b", Correct: true, Answer: "y"},
		{ID: "c", Correct: true, Answer: "z"},
		{ID: "d", Correct: true, Answer: "w"},
		{ID: "gone", Correct: true},
	}}
	after := &DocsReport{Results: []DocsResult{
		{ID: "a", Correct: true, Answer: "x2"},
		{ID: "b", Correct: false, Answer: "y"},
		{ID: "c", Correct: true, Answer: "z, reworded"},
		{ID: "d", Correct: true, Answer: "w"},
		{ID: "new", Correct: true},
	}}
	d := CompareDocs(before, after)
	if !slices.Equal(d.Gained, []string{"a"}) || !slices.Equal(d.Lost, []string{"b"}) || d.Reworded != 1 || d.Unmatched != 2 {
		t.Errorf("CompareDocs = %+v, want gained a, lost b, 1 reworded, 2 unmatched", d)
	}
	var buf bytes.Buffer
	if err := WriteDocsDiff(&buf, d); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"1 gained, 1 lost, 1 answered otherwise", "2 in only one of the two reports", "gained: a", "lost:   b"} {
		if !strings.Contains(buf.String(), w) {
			t.Errorf("diff lacks %q:\n%s", w, buf.String())
		}
	}
	if !CompareDocs(before, before).Empty() {
		t.Errorf("a report against itself is not empty: %+v", CompareDocs(before, before))
	}
	if _, err := ReadDocsReport(strings.NewReader(`{"figures": []}`)); err == nil {
		t.Error("a report with no results was read")
	}
}
