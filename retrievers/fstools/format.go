package fstools

import (
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// HumanSize formats a byte count with binary units: "512 B", "1.5 KB",
// "12 MB".
func HumanSize(n int64) string {
	const unit = 1024
	if n < unit {
		return strconv.FormatInt(n, 10) + " B"
	}
	units := []string{"KB", "MB", "GB", "TB", "PB", "EB"}
	v := float64(n)
	i := -1
	for v >= unit && i < len(units)-1 {
		v /= unit
		i++
	}
	if v >= 100 {
		return fmt.Sprintf("%.0f %s", v, units[i])
	}
	if v >= 10 {
		return fmt.Sprintf("%.1f %s", v, units[i])
	}
	return fmt.Sprintf("%.2f %s", v, units[i])
}

// DisplayName makes a file name safe to print on one line: names with
// control characters (newlines!), leading or trailing spaces or quotes are
// shown quoted with Go escapes; others as they are.
func DisplayName(s string) string {
	if s == "" {
		return `""`
	}
	plain := !unicode.IsSpace(rune(s[0])) && !unicode.IsSpace(rune(s[len(s)-1]))
	for _, r := range s {
		if unicode.IsControl(r) || r == '"' || r == unicode.ReplacementChar || !unicode.IsPrint(r) && r != ' ' {
			plain = false
			break
		}
	}
	if plain {
		return s
	}
	return strconv.Quote(s)
}

const timeLayout = "2006-01-02 15:04"

func formatTime(t time.Time, loc *time.Location) string {
	if t.IsZero() {
		return "unknown"
	}
	return t.In(loc).Format(timeLayout)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// String renders a tree like the tree command, with counts per directory.
func (n *TreeNode) String() string {
	var b strings.Builder
	b.WriteString(DisplayName(n.Name))
	b.WriteString(dirSummary(n))
	b.WriteByte('\n')
	n.render(&b, "")
	return b.String()
}

func dirSummary(n *TreeNode) string {
	return fmt.Sprintf(" (%s, %s)", plural(n.Files, "file", "files"), HumanSize(n.Bytes))
}

func (n *TreeNode) render(b *strings.Builder, prefix string) {
	for i, c := range n.Children {
		last := i == len(n.Children)-1 && n.Omitted == 0
		branch, next := "├── ", "│   "
		if last {
			branch, next = "└── ", "    "
		}
		b.WriteString(prefix + branch + DisplayName(c.Name))
		if c.Dir {
			b.WriteString("/" + dirSummary(c))
		} else {
			b.WriteString(" (" + HumanSize(c.Bytes) + ")")
		}
		b.WriteByte('\n')
		if c.Dir {
			c.render(b, prefix+next)
		}
	}
	if n.Omitted > 0 {
		fmt.Fprintf(b, "%s└── … %d more\n", prefix, n.Omitted)
	}
}

// walkNote says what a walk left out, or "".
func (t *Tools) walkNote(w Walk) string {
	var parts []string
	if w.Truncated {
		parts = append(parts, fmt.Sprintf("stopped after %d entries, so totals are lower bounds", w.Visited))
	}
	if w.SkippedCount > 0 {
		s := fmt.Sprintf("skipped %s", plural(w.SkippedCount, "entry", "entries"))
		if len(w.Skipped) > 0 {
			p := w.Skipped[0].Path
			if r, ok := t.rootOf(p); ok && len(t.roots) == 1 {
				p = relTo(r, p)
			}
			s += fmt.Sprintf(" (e.g. %s: %s)", DisplayName(p), w.Skipped[0].Reason)
		}
		parts = append(parts, s)
	}
	if len(parts) == 0 {
		return ""
	}
	return "Note: " + strings.Join(parts, "; ") + "."
}
