package evals

import (
	"fmt"
	"html"
	"math"
	"strings"
)

// ConfusionSVG draws a confusion matrix as a heat map: rows are expected
// labels, columns routed labels, each cell shaded by its share of the row.
func ConfusionSVG(title string, c map[string]map[string]int) []byte {
	labels := confusionLabels(c)
	const cell, left, top = 64, 110, 70
	w := max(left+cell*len(labels)+20, 440, 20+8*len(title))
	h := top + cell*len(labels) + 56
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">`+"\n", w, h, w, h)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="#ffffff"/>`+"\n", w, h)
	fmt.Fprintf(&b, `<text x="%d" y="20" font-size="14" font-weight="bold">%s</text>`+"\n", 10, html.EscapeString(title))
	fmt.Fprintf(&b, `<text x="%d" y="40" fill="#555">routed →</text>`+"\n", left)
	for j, l := range labels {
		fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle">%s</text>`+"\n", left+j*cell+cell/2, top-8, html.EscapeString(l))
	}
	for i, want := range labels {
		row := c[want]
		total := 0
		for _, n := range row {
			total += n
		}
		y := top + i*cell
		fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="end">%s</text>`+"\n", left-8, y+cell/2+4, html.EscapeString(want))
		for j, got := range labels {
			n := row[got]
			share := 0.0
			if total > 0 {
				share = float64(n) / float64(total)
			}
			x := left + j*cell
			fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%d" height="%d" fill="%s" stroke="#ffffff"/>`+"\n", x, y, cell, cell, heat(share, want == got))
			ink := "#000000"
			if share > 0.6 {
				ink = "#ffffff"
			}
			if total > 0 {
				fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle" fill="%s">%d</text>`+"\n", x+cell/2, y+cell/2+4, ink, n)
			}
		}
	}
	fmt.Fprintf(&b, `<text x="10" y="%d" fill="#555">rows: expected route; shade: share of the row,</text>`+"\n", h-28)
	fmt.Fprintf(&b, `<text x="10" y="%d" fill="#555">green on the diagonal (right), red off it (wrong)</text>`+"\n", h-12)
	b.WriteString("</svg>\n")
	return []byte(b.String())
}

// heat shades a share: green for correct cells, red for errors.
func heat(share float64, diagonal bool) string {
	if share == 0 {
		return "#f4f4f4"
	}
	t := 0.15 + 0.85*share
	base := [3]float64{214, 39, 40} // red
	if diagonal {
		base = [3]float64{44, 160, 44} // green
	}
	mix := func(c float64) int { return int(math.Round(255 + (c-255)*t)) }
	return fmt.Sprintf("#%02x%02x%02x", mix(base[0]), mix(base[1]), mix(base[2]))
}

// LatencySVG draws p50 and p95 latency per node as horizontal bars, one
// group per node, one bar pair per variant.
func LatencySVG(heading string, reps []*Report) []byte {
	nodes := latencyNodes(reps)
	maxMS := 0.0
	for _, r := range reps {
		for _, l := range r.LatencyMS {
			maxMS = max(maxMS, float64(l.P95))
		}
	}
	if maxMS == 0 {
		maxMS = 1
	}
	const left, barW, barH, gap = 150, 420, 12, 10
	w := left + barW + 140
	var body strings.Builder
	palette := [][2]string{{"#9ecae1", "#3182bd"}, {"#fdae6b", "#e6550d"}, {"#a1d99b", "#31a354"}, {"#bcbddc", "#756bb1"},
		{"#d9d9d9", "#636363"}, {"#fa9fb5", "#c51b8a"}, {"#c7e9c0", "#006d2c"}, {"#fdd0a2", "#a63603"}}
	y := 50
	for _, n := range nodes {
		fmt.Fprintf(&body, `<text x="%d" y="%d" text-anchor="end" font-weight="bold">%s</text>`+"\n", left-8, y+barH, html.EscapeString(n))
		for i, r := range reps {
			l, ok := r.LatencyMS[n]
			if !ok {
				continue
			}
			col := palette[i%len(palette)]
			for k, v := range []float64{float64(l.P50), float64(l.P95)} {
				bw := int(math.Round(v / maxMS * barW))
				fmt.Fprintf(&body, `<rect x="%d" y="%d" width="%d" height="%d" fill="%s"/>`+"\n", left, y, max(bw, 1), barH-2, col[k])
				label := fmt.Sprintf("%.1f", v)
				if len(reps) > 1 && k == 0 {
					label += " " + title(r.Variant)
				}
				fmt.Fprintf(&body, `<text x="%d" y="%d">%s</text>`+"\n", left+max(bw, 1)+4, y+barH-3, html.EscapeString(label))
				y += barH
			}
		}
		y += gap
	}
	h := y + 10
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="11">`+"\n", w, h, w, h)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="#ffffff"/>`+"\n", w, h)
	fmt.Fprintf(&b, `<text x="10" y="20" font-size="14" font-weight="bold">%s</text>`+"\n", html.EscapeString(heading))
	fmt.Fprintf(&b, `<text x="10" y="38" fill="#555">light: p50, dark: p95 (ms)</text>`+"\n")
	b.WriteString(body.String())
	b.WriteString("</svg>\n")
	return []byte(b.String())
}
