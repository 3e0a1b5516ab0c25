package evals

import (
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"text/tabwriter"
)

// Delta is one metric in two runs.
type Delta struct {
	Metric string
	// Variant is "" for the top-level figures.
	Variant  string
	Old, New float64
	// InOld and InNew say whether each run has the metric.
	InOld, InNew bool
}

// Change is New-Old (0 when either side is missing).
func (d Delta) Change() float64 {
	if !d.InOld || !d.InNew {
		return 0
	}
	return d.New - d.Old
}

// Verdict is "better", "worse", "same", "new" or "gone".
func (d Delta) Verdict() string {
	switch {
	case !d.InOld:
		return "new"
	case !d.InNew:
		return "gone"
	case math.Abs(d.Change()) < 5e-5:
		return "same"
	case (d.Change() > 0) != lowerIsBetter(d.Metric):
		return "better"
	}
	return "worse"
}

// Compare lists every metric of either report with its old and new value,
// sorted by metric name. When both runs compared variants, it compares each
// variant present in either run by name (the top level repeats the first
// variant); otherwise the top-level figures.
func Compare(old, new *Report) []Delta {
	if len(old.Variants) == 0 || len(new.Variants) == 0 {
		return compareMetrics("", old.Metrics(), new.Metrics())
	}
	var ds []Delta
	ov, nv := variantsByName(old), variantsByName(new)
	names := map[string]bool{}
	for n := range ov {
		names[n] = true
	}
	for n := range nv {
		names[n] = true
	}
	for _, n := range slices.Sorted(maps.Keys(names)) {
		om, nm := map[string]float64{}, map[string]float64{}
		if r, ok := ov[n]; ok {
			om = r.Metrics()
		}
		if r, ok := nv[n]; ok {
			nm = r.Metrics()
		}
		ds = append(ds, compareMetrics(n, om, nm)...)
	}
	return ds
}

func variantsByName(r *Report) map[string]*Report {
	m := map[string]*Report{}
	for i := range r.Variants {
		m[title(r.Variants[i].Variant)] = &r.Variants[i]
	}
	return m
}

func compareMetrics(variant string, om, nm map[string]float64) []Delta {
	keys := map[string]bool{}
	for k := range om {
		keys[k] = true
	}
	for k := range nm {
		keys[k] = true
	}
	var ds []Delta
	for _, k := range slices.Sorted(maps.Keys(keys)) {
		o, inO := om[k]
		n, inN := nm[k]
		ds = append(ds, Delta{Metric: k, Variant: variant, Old: o, New: n, InOld: inO, InNew: inN})
	}
	return ds
}

// WriteCompare prints deltas as a table. With changedOnly, unchanged
// metrics are left out.
func WriteCompare(w io.Writer, ds []Delta, changedOnly bool) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "metric\told\tnew\tchange\t\t")
	section := ""
	for _, d := range ds {
		if changedOnly && d.Verdict() == "same" {
			continue
		}
		if d.Variant != section {
			section = d.Variant
			fmt.Fprintf(tw, "[%s]\t\t\t\t\t\n", section)
		}
		old, nw, ch := "-", "-", "-"
		if d.InOld {
			old = fmt.Sprintf("%.4f", d.Old)
		}
		if d.InNew {
			nw = fmt.Sprintf("%.4f", d.New)
		}
		if d.InOld && d.InNew {
			ch = fmt.Sprintf("%+.4f", d.Change())
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t\n", d.Metric, old, nw, ch, d.Verdict())
	}
	return tw.Flush()
}
