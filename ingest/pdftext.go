package ingest

import (
	"math"
	"strings"

	"github.com/ledongthuc/pdf"
)

// Word and line spacing from glyph positions. A PDF draws glyphs at
// coordinates and rarely draws the space between words, so text read in
// drawing order runs words together ("SharedMIME-infoDatabase"). The
// thresholds are fractions of the font size (1 em): between the letters of
// a word the gap is about 0 (kerning makes it slightly negative); between
// words it is a space's width, 0.25-0.33 em in common fonts.
const (
	// wordGap: a horizontal gap wider than this starts a new word.
	wordGap = 0.15
	// lineShift: a baseline moved by more than this starts a new line.
	lineShift = 0.5
	// paraGap: a baseline moved down by more than this (a line's height
	// is about 1.2 em) starts a new paragraph.
	paraGap = 1.8
)

// pdfPageText is a page's text with spaces between words and line breaks
// between lines, from the positions of its glyphs.
func pdfPageText(p pdf.Page) string {
	var b strings.Builder
	var prev *pdf.Text
	nl := false
	texts := pageGlyphs(p)
	for i := range texts {
		t := &texts[i]
		if t.S == "" {
			continue
		}
		if t.S == "\n" || t.S == "\r" {
			nl = prev != nil // the extractor ended a text object: a line break at least
			continue
		}
		if prev != nil {
			em := math.Max(math.Max(t.FontSize, prev.FontSize), 1)
			dy := prev.Y - t.Y
			gap := t.X - (prev.X + prev.W)
			lastSpace := strings.HasSuffix(prev.S, " ")
			switch {
			case dy > paraGap*em:
				b.WriteString("\n\n")
			case math.Abs(dy) > lineShift*em || t.X < prev.X-em:
				b.WriteByte('\n')
			case nl:
				b.WriteByte('\n')
			case gap > wordGap*em && !lastSpace && !strings.HasPrefix(t.S, " "):
				b.WriteByte(' ')
			}
		}
		b.WriteString(t.S)
		prev, nl = t, false
	}
	// Lines drawn as separate runs repeat trailing spaces: tidy them.
	lines := strings.Split(b.String(), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t")
	}
	return strings.Join(lines, "\n")
}

// pdfMatrix is a PDF transformation matrix [a b 0; c d 0; e f 1].
type pdfMatrix [3][3]float64

var pdfIdent = pdfMatrix{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}

func (x pdfMatrix) mul(y pdfMatrix) pdfMatrix {
	var z pdfMatrix
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			for k := 0; k < 3; k++ {
				z[i][j] += x[i][k] * y[k][j]
			}
		}
	}
	return z
}

func translate(tx, ty float64) pdfMatrix { return pdfMatrix{{1, 0, 0}, {0, 1, 0}, {tx, ty, 1}} }

// pdfFont is what placing glyphs needs of a font, read once per page:
// ledongthuc/pdf's Font.Width looks the widths array up again for every
// glyph (re-reading compressed object streams), 40 times slower on a
// real document than all the rest.
type pdfFont struct {
	enc    pdf.TextEncoding
	first  int
	widths []float64
}

func (f *pdfFont) width(code int) float64 {
	if i := code - f.first; i >= 0 && i < len(f.widths) {
		return f.widths[i]
	}
	return 0
}

// pageGlyphs places each glyph of a page's text like ledongthuc/pdf's
// Page.Content (same text state and matrices), with each font's widths
// read once.
func pageGlyphs(p pdf.Page) []pdf.Text {
	strm := p.V.Key("Contents")
	if p.V.IsNull() || strm.Kind() == pdf.Null {
		return nil
	}
	type state struct {
		tc, tw, th, tl, tfs, trise float64
		font                       *pdfFont
		tm, tlm, ctm               pdfMatrix
	}
	fonts := map[string]*pdfFont{}
	nop := &pdfFont{}
	g := state{th: 1, ctm: pdfIdent, font: nop}
	var stack []state
	var out []pdf.Text
	show := func(s string) {
		f := g.font
		decoded := s
		if f.enc != nil {
			decoded = f.enc.Decode(s)
		}
		n := 0
		for _, ch := range decoded {
			var w0 float64
			code := -1
			if n < len(s) {
				code = int(s[n])
				w0 = f.width(code)
			}
			n++
			trm := pdfMatrix{{g.tfs * g.th, 0, 0}, {0, g.tfs, 0}, {0, g.trise, 1}}.mul(g.tm).mul(g.ctm)
			out = append(out, pdf.Text{FontSize: trm[0][0], X: trm[2][0], Y: trm[2][1], W: w0 / 1000 * trm[0][0], S: string(ch)})
			tx := w0/1000*g.tfs + g.tc
			if code == ' ' {
				tx += g.tw
			}
			g.tm = translate(tx*g.th, 0).mul(g.tm)
		}
	}
	nums := func(args []pdf.Value, n int) ([]float64, bool) {
		if len(args) != n {
			return nil, false
		}
		out := make([]float64, n)
		for i, a := range args {
			out[i] = a.Float64()
		}
		return out, true
	}
	pdf.Interpret(strm, func(stk *pdf.Stack, op string) {
		args := make([]pdf.Value, stk.Len())
		for i := len(args) - 1; i >= 0; i-- {
			args[i] = stk.Pop()
		}
		switch op {
		case "cm", "Tm":
			v, ok := nums(args, 6)
			if !ok {
				return
			}
			m := pdfMatrix{{v[0], v[1], 0}, {v[2], v[3], 0}, {v[4], v[5], 1}}
			if op == "cm" {
				g.ctm = m.mul(g.ctm)
			} else {
				g.tm, g.tlm = m, m
			}
		case "q":
			stack = append(stack, g)
		case "Q":
			if n := len(stack); n > 0 {
				g, stack = stack[n-1], stack[:n-1]
			}
		case "BT":
			g.tm, g.tlm = pdfIdent, pdfIdent
		case "T*":
			g.tlm = translate(0, -g.tl).mul(g.tlm)
			g.tm = g.tlm
		case "Tc", "Tw", "TL", "Ts", "Tz":
			v, ok := nums(args, 1)
			if !ok {
				return
			}
			switch op {
			case "Tc":
				g.tc = v[0]
			case "Tw":
				g.tw = v[0]
			case "TL":
				g.tl = v[0]
			case "Ts":
				g.trise = v[0]
			case "Tz":
				g.th = v[0] / 100
			}
		case "TD", "Td":
			v, ok := nums(args, 2)
			if !ok {
				return
			}
			if op == "TD" {
				g.tl = -v[1]
			}
			g.tlm = translate(v[0], v[1]).mul(g.tlm)
			g.tm = g.tlm
		case "Tf":
			if len(args) != 2 {
				return
			}
			name := args[0].Name()
			f, ok := fonts[name]
			if !ok {
				pf := p.Font(name)
				f = &pdfFont{enc: (&pf).Encoder(), first: pf.FirstChar(), widths: pf.Widths()}
				fonts[name] = f
			}
			g.font, g.tfs = f, args[1].Float64()
		case "\"", "'", "Tj":
			if op == "\"" {
				if len(args) != 3 {
					return
				}
				g.tw, g.tc = args[0].Float64(), args[1].Float64()
				args = args[2:]
			}
			if len(args) != 1 {
				return
			}
			if op != "Tj" {
				g.tlm = translate(0, -g.tl).mul(g.tlm)
				g.tm = g.tlm
			}
			show(args[0].RawString())
		case "TJ":
			if len(args) != 1 {
				return
			}
			v := args[0]
			for i := 0; i < v.Len(); i++ {
				x := v.Index(i)
				if x.Kind() == pdf.String {
					show(x.RawString())
				} else {
					g.tm = translate(-x.Float64()/1000*g.tfs*g.th, 0).mul(g.tm)
				}
			}
		}
	})
	return out
}
