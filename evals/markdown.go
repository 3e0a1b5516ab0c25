package evals

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// File is one file of a rendered report.
type File struct {
	Name string
	Data []byte
}

// Markdown renders r as base+".md" with side-file SVG charts
// (base+"-confusion.svg", base+"-coarse-confusion.svg", base+"-latency.svg")
// that the Markdown links by relative name, as GitHub and browsers show
// them. base is a file name without directory, e.g. "report".
func Markdown(r *Report, base string) []File {
	var files []File
	var b strings.Builder
	b.WriteString("# graphrag eval report\n\n")
	for i, t := range summaryTables(r) {
		if i > 0 {
			b.WriteString("\n")
		}
		writeMDTable(&b, t, true)
	}
	if rt := r.Routing; rt != nil {
		b.WriteString("\n## Routing\n\n")
		var cls [][]string
		cls = append(cls, []string{"class", "precision", "recall", "F1", "support", "predicted"})
		for _, c := range classOrder(rt.PerClass) {
			s := rt.PerClass[c]
			cls = append(cls, []string{c, f3(s.Precision), f3(s.Recall), f3(s.F1), fmt.Sprint(s.Support), fmt.Sprint(s.Predicted)})
		}
		writeMDTable(&b, cls, true)
		if len(rt.Confusion) > 0 {
			name := base + "-confusion.svg"
			files = append(files, File{name, ConfusionSVG("Routing confusion matrix (fine labels)", rt.Confusion)})
			fmt.Fprintf(&b, "\n![routing confusion matrix](%s)\n", name)
		}
		if len(rt.CoarseConfusion) > 0 {
			name := base + "-coarse-confusion.svg"
			files = append(files, File{name, ConfusionSVG("Routing confusion matrix (coarse: vector+hybrid = local)", rt.CoarseConfusion)})
			fmt.Fprintf(&b, "\n![coarse routing confusion matrix](%s)\n", name)
		}
		if cv := rt.CV; cv != nil {
			b.WriteString("\n### Leave-one-source-out\n\nTrained without each source, scored on its rows, by the policy class of the rows. " +
				"*Class route*: the whole router against the route of the row's class (the figure reported before the others). " +
				"*Policy*: the whole router against what the policy prescribes in this configuration (no language model: a general-knowledge question searches the files unless they hold little about it). " +
				"*Classifier*: the learned classifier alone, coarse; *class*: its class against the row's class. " +
				"*Seen*: the classifier trained on every source with every tenth row of this one held out, scored on those rows.\n\n")
			rows := [][]string{{"source", "class", "rows", "class route", "policy", "classifier", "class", "seen", "routed to", "classified as"}}
			for _, f := range cv.Folds {
				rows = append(rows, append(append([]string{f.Source, "all", fmt.Sprint(f.Rows)}, cvScoreList(f.CVScores)...), f3(f.SeenAccuracy), "", ""))
				for _, c := range f.Classes {
					rows = append(rows, append(append([]string{"", c.Class, fmt.Sprint(c.Rows)}, cvScoreList(c.CVScores)...), "", countsCell(c.Routed), countsCell(c.Classified)))
				}
			}
			rows = append(rows, []string{"mean", "", "", f3(cv.Router.Mean), f3(cv.Policy.Mean), f3(cv.Classifier.Mean), "", f3(cv.SeenMean), "", ""})
			writeMDTable(&b, rows, false)
			if len(cv.Dev) > 0 {
				b.WriteString("\nThe evaluation rows by source, each routed by the router trained without the training source that shares its wording " +
					"(none for a source never in training), coarse accuracy as configured here and with a language model configured, as the rows' labels assume.\n\n")
				rows := [][]string{{"source", "trained without", "rows", "coarse accuracy", "with a model"}}
				for _, d := range cv.Dev {
					rows = append(rows, []string{d.Source, d.Without, fmt.Sprint(d.Rows), f3(d.CoarseAccuracy), f3(d.WithModel)})
				}
				rows = append(rows, []string{"mean", "", "", f3(cv.DevRouter.Mean), f3(cv.DevWithModel.Mean)})
				writeMDTable(&b, rows, false)
			}
		}
		if len(rt.Mistakes) > 0 {
			b.WriteString("\n### Misrouted rows\n\n")
			rows := [][]string{{"id", "query", "expected", "routed", "by", "reason"}}
			for _, m := range rt.Mistakes {
				rows = append(rows, []string{m.ID, m.Query, m.Want, m.Got, m.By, m.Reason})
			}
			writeMDTable(&b, rows, false)
		}
	}
	if len(r.Misses) > 0 {
		b.WriteString("\n## Questions missed\n\nGold passages not in the top k, or an abstention on an answerable question")
		if r.Variant != "" {
			fmt.Fprintf(&b, " (variant %s)", r.Variant)
		}
		b.WriteString(".\n\n")
		rows := [][]string{{"qid", "question", "type", "route", "first gold", "missing", "abstained"}}
		for _, m := range r.Misses {
			first := "-"
			if m.FirstGold > 0 {
				first = fmt.Sprint(m.FirstGold)
			}
			ab := ""
			if m.Abstained {
				ab = "yes"
			}
			rows = append(rows, []string{m.QID, m.Question, m.Type, m.Route, first, strings.Join(m.Missing, "; "), ab})
		}
		writeMDTable(&b, rows, false)
	}
	if len(r.LatencyMS) > 0 {
		name := base + "-latency.svg"
		files = append(files, File{name, LatencySVG("Latency per node", columns(r))})
		fmt.Fprintf(&b, "\n## Latency\n\n![latency per node](%s)\n", name)
	}
	var notes []string
	for _, x := range columns(r) {
		for _, n := range x.Notes {
			notes = append(notes, fmt.Sprintf("- %s: %s", title(x.Variant), n))
		}
		for _, f := range x.Failures {
			notes = append(notes, fmt.Sprintf("- %s: failed: %s", title(x.Variant), f))
		}
	}
	if len(notes) > 0 {
		b.WriteString("\n## Notes\n\n" + strings.Join(notes, "\n") + "\n")
	}
	if len(r.Skipped) > 0 {
		b.WriteString("\n## Skipped dataset rows\n\n")
		for _, s := range r.Skipped {
			fmt.Fprintf(&b, "- `%s`\n", mdEscape(s.Error()))
		}
	}
	return append([]File{{base + ".md", []byte(b.String())}}, files...)
}

// writeMDTable writes rows (the first is the header) as a GitHub table;
// numeric right-aligns every column but the first.
func writeMDTable(b *strings.Builder, rows [][]string, numeric bool) {
	if len(rows) == 0 {
		return
	}
	line := func(cells []string) {
		esc := make([]string, len(cells))
		for i, c := range cells {
			esc[i] = mdEscape(c)
		}
		b.WriteString("| " + strings.Join(esc, " | ") + " |\n")
	}
	line(rows[0])
	sep := make([]string, len(rows[0]))
	for i := range sep {
		sep[i] = "---"
		if i > 0 && numeric {
			sep[i] = "---:"
		}
	}
	b.WriteString("|" + strings.Join(sep, "|") + "|\n")
	for _, r := range rows[1:] {
		line(r)
	}
}

func mdEscape(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	return strings.ReplaceAll(s, "\n", " ")
}

// WriteMarkdownFile writes the Markdown report to path (e.g.
// "docs/eval-report.md") and its SVG charts beside it, named after it
// ("docs/eval-report-latency.svg"...). It returns the files written.
func WriteMarkdownFile(path string, r *Report) ([]string, error) {
	dir := filepath.Dir(path)
	base := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("write eval report: %w", err)
	}
	var written []string
	for _, f := range Markdown(r, base) {
		p := filepath.Join(dir, f.Name)
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			return written, fmt.Errorf("write eval report: %w", err)
		}
		written = append(written, p)
	}
	return written, nil
}
