package evals

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// DocsDiff is how a docs report differs, question by question, from an
// earlier report of the same questions: which became correct (Gained) and
// which stopped being correct (Lost), in the order of the later report,
// how many kept their score with another answer (Reworded), and how many
// questions only one of the two reports holds (Unmatched). A change meant
// to touch nothing shows an empty diff; a figure that moved shows which
// rows moved it.
type DocsDiff struct {
	Gained    []string `json:"gained"`
	Lost      []string `json:"lost"`
	Reworded  int      `json:"reworded"`
	Unmatched int      `json:"unmatched"`
}

// Empty reports whether no question changed its score or its answer.
func (d DocsDiff) Empty() bool {
	return len(d.Gained) == 0 && len(d.Lost) == 0 && d.Reworded == 0 && d.Unmatched == 0
}

// CompareDocs compares a report with an earlier one (before).
func CompareDocs(before, after *DocsReport) DocsDiff {
	old := make(map[string]DocsResult, len(before.Results))
	for _, r := range before.Results {
		old[r.ID] = r
	}
	d := DocsDiff{Gained: []string{}, Lost: []string{}}
	seen := 0
	for _, r := range after.Results {
		b, ok := old[r.ID]
		if !ok {
			d.Unmatched++
			continue
		}
		seen++
		switch {
		case r.Correct && !b.Correct:
			d.Gained = append(d.Gained, r.ID)
		case !r.Correct && b.Correct:
			d.Lost = append(d.Lost, r.ID)
		case r.Answer != b.Answer:
			d.Reworded++
		}
	}
	d.Unmatched += len(old) - seen
	return d
}

// ReadDocsReport reads a report written by `graphrag eval docs --json`.
func ReadDocsReport(r io.Reader) (*DocsReport, error) {
	var rep DocsReport
	if err := json.NewDecoder(r).Decode(&rep); err != nil {
		return nil, fmt.Errorf("not a report of graphrag eval docs --json: %w", err)
	}
	if len(rep.Results) == 0 {
		return nil, fmt.Errorf("the report holds no results: write one with graphrag eval docs --json")
	}
	return &rep, nil
}

// WriteDocsDiff prints a diff: a line of counts, then the questions gained
// and lost by id.
func WriteDocsDiff(w io.Writer, d DocsDiff) error {
	if d.Empty() {
		_, err := fmt.Fprintln(w, "Since the baseline: every question scored and answered as before.")
		return err
	}
	fmt.Fprintf(w, "Since the baseline: %d gained, %d lost, %d answered otherwise with the same score", len(d.Gained), len(d.Lost), d.Reworded)
	if d.Unmatched > 0 {
		fmt.Fprintf(w, ", %d in only one of the two reports", d.Unmatched)
	}
	fmt.Fprintln(w)
	if len(d.Gained) > 0 {
		fmt.Fprintf(w, "  gained: %s\n", strings.Join(d.Gained, " "))
	}
	if len(d.Lost) > 0 {
		fmt.Fprintf(w, "  lost:   %s\n", strings.Join(d.Lost, " "))
	}
	_, err := fmt.Fprintln(w)
	return err
}
