package ingest

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
)

// pdfWithWidths builds a one-page PDF whose font has a widths array (every
// glyph 600/1000 em wide) and whose content stream is stream: words are
// placed by moves and kerning, with no space characters, as typesetters do.
func pdfWithWidths(stream string) []byte {
	var b bytes.Buffer
	var offs []int
	obj := func(body string) {
		offs = append(offs, b.Len())
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", len(offs), body)
	}
	b.WriteString("%PDF-1.4\n")
	obj("<< /Type /Catalog /Pages 2 0 R >>")
	obj("<< /Type /Pages /Kids [4 0 R] /Count 1 >>")
	obj("<< /Type /Font /Subtype /Type1 /BaseFont /Courier /Encoding /WinAnsiEncoding /FirstChar 32 /LastChar 126 /Widths [" +
		strings.TrimSpace(strings.Repeat("600 ", 95)) + "] >>")
	obj("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 5 0 R /Resources << /Font << /F1 3 0 R >> >> >>")
	obj(fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(stream), stream))
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(offs)+1)
	for _, o := range offs {
		fmt.Fprintf(&b, "%010d 00000 n \n", o)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(offs)+1, xref)
	return b.Bytes()
}

// TestPDFWordSpacing: words a PDF places apart without drawing a space
// come out with one; letters kerned together stay one word; lines and
// paragraphs come from the baselines.
func TestPDFWordSpacing(t *testing.T) {
	// 12 pt Courier: each glyph advances 7.2 pt; a 4 pt gap is a space.
	stream := "BT /F1 12 Tf 72 700 Td (Shared) Tj 47.2 0 Td (MIME) Tj ET\n" + // 6*7.2 = 43.2, +4
		"BT /F1 12 Tf 72 686 Td [(Data) -350 (base) 30 (s)] TJ ET\n" + // -350: 4.2 pt gap; +30: kerned
		"BT /F1 12 Tf 72 640 Td (Next) Tj ET"
	l, err := loadPDF(context.Background(), "w.pdf", pdfWithWidths(stream))
	if err != nil {
		t.Fatal(err)
	}
	if want := "Shared MIME\nData bases\n\nNext"; l.Text != want {
		t.Errorf("text = %q, want %q", l.Text, want)
	}
}

// TestPDFRealDocument reads a PDF installed on this machine (Debian's
// shared-mime-info specification) whose words came out run together.
func TestPDFRealDocument(t *testing.T) {
	const path = "/usr/share/doc/shared-mime-info/shared-mime-info-spec.pdf"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Skipf("%s not installed", path)
	}
	l, err := loadPDF(context.Background(), path, data)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Shared MIME-info Database", "X Desktop Group", "This is version", "use the same database so that different"} {
		if !strings.Contains(l.Text, want) {
			t.Errorf("text does not hold %q; it starts %q", want, l.Text[:min(200, len(l.Text))])
		}
	}
}
