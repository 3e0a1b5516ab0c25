package ingest_test

import (
	"bytes"
	"compress/zlib"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/graphrag/graphrag/ingest"
)

// rawPDF builds a PDF of the given objects (numbered from 1) with a
// correct cross-reference table; trailer is added to the trailer
// dictionary. An object of the form "stream:<dict>\x00<bytes>" is a stream.
func rawPDF(trailer string, objs ...string) []byte {
	var b bytes.Buffer
	b.WriteString("%PDF-1.4\n")
	var offs []int
	for i, o := range objs {
		offs = append(offs, b.Len())
		if dict, data, ok := strings.Cut(strings.TrimPrefix(o, "stream:"), "\x00"); ok && strings.HasPrefix(o, "stream:") {
			fmt.Fprintf(&b, "%d 0 obj\n%s\nstream\n%s\nendstream\nendobj\n", i+1, dict, data)
			continue
		}
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(offs)+1)
	for _, o := range offs {
		fmt.Fprintf(&b, "%010d 00000 n \n", o)
	}
	trailer = strings.ReplaceAll(trailer, "XREF", fmt.Sprint(xref))
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R %s >>\nstartxref\n%d\n%%%%EOF\n", len(offs)+1, trailer, xref)
	return b.Bytes()
}

// Hostile PDFs of issue 13, each a few hundred bytes.
var (
	// kidsCyclePDF: a Pages node whose kid is a Pages node whose kid is
	// the first again; the library's page lookup walks it forever.
	kidsCyclePDF = rawPDF("",
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Pages /Kids [2 0 R] /Count 1 >>")
	// parentCyclePDF: a page whose Parent is its own parent; the library
	// looks for inherited Resources up that chain forever.
	parentCyclePDF = rawPDF("",
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 4 0 R /Contents 5 0 R >>",
		"<< /Type /Pages /Parent 4 0 R >>",
		"stream:<< /Length 20 >>\x00BT (hello world) Tj ET")
	// prevCyclePDF: a cross-reference section whose Prev is itself; the
	// library loops inside NewReader, before any check can run, so only
	// stopping the parse at its deadline ends it.
	prevCyclePDF = rawPDF("/Prev XREF",
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [] /Count 0 >>")
)

// xrefBombPDF: a cross-reference section that starts at object
// 50,000,000, so the library sizes its table for fifty million entries
// (1.6 GB, copied once more as it grows) out of a 200-byte file.
var xrefBombPDF = func() []byte {
	good := rawPDF("", "<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [] /Count 0 >>")
	return bytes.Replace(good, []byte("xref\n0 3\n"), []byte("xref\n50000000 1\n0000000009 00000 n \n0 3\n"), 1)
}()

// bombPDF is one page whose contents list the same compressed stream refs
// times; the stream expands to streamSize bytes of text-showing operators.
func bombPDF(t testing.TB, refs, streamSize int) []byte {
	t.Helper()
	op := "BT (all work and no play makes jack a dull boy) Tj ET\n"
	var z bytes.Buffer
	zw, _ := zlib.NewWriterLevel(&z, zlib.BestCompression)
	for n := 0; n < streamSize; n += len(op) {
		zw.Write([]byte(op))
	}
	zw.Close()
	contents := strings.TrimSpace(strings.Repeat("4 0 R ", refs))
	return rawPDF("",
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /Contents ["+contents+"] >>",
		fmt.Sprintf("stream:<< /Length %d /Filter /FlateDecode >>\x00%s", z.Len(), z.Bytes()))
}

// runGuarded runs an ingest and fails the test if it has not returned
// within hangGuard (the hostile files used to hang it forever).
func runGuarded(t *testing.T, ctx context.Context, in *ingest.Ingester, paths ...string) (ingest.Summary, error) {
	t.Helper()
	type result struct {
		sum ingest.Summary
		err error
	}
	done := make(chan result, 1)
	go func() {
		sum, err := in.Run(ctx, paths...)
		done <- result{sum, err}
	}()
	select {
	case r := <-done:
		return r.sum, r.err
	case <-time.After(hangGuard):
		t.Fatalf("ingest did not return within %s", hangGuard)
		return ingest.Summary{}, nil
	}
}

// TestHostilePDFsAreSkipped: every hostile PDF is skipped with a reason,
// and the good file beside it is ingested in the same run. Before, the
// cycles spun at 100% CPU forever and the bomb made 200,000 chunks.
func TestHostilePDFsAreSkipped(t *testing.T) {
	for _, tc := range []struct {
		name   string
		data   []byte
		opts   ingest.Options
		reason string
		detail string
	}{
		{"kids cycle", kidsCyclePDF, ingest.Options{}, ingest.ReasonParseFailed, "levels deep"},
		{"parent cycle", parentCyclePDF, ingest.Options{}, ingest.ReasonParseFailed, "Parent chain"},
		{"kids cycle in process", kidsCyclePDF, ingest.Options{ParseInProcess: true}, ingest.ReasonParseFailed, "levels deep"},
		{"parent cycle in process", parentCyclePDF, ingest.Options{ParseInProcess: true}, ingest.ReasonParseFailed, "Parent chain"},
		{"xref Prev cycle stopped at the deadline", prevCyclePDF, ingest.Options{ParseTimeout: 2 * time.Second}, ingest.ReasonParseFailed, "not done within 2s"},
		{"compression bomb", bombPDF(t, 64, 1<<20), ingest.Options{MaxDecompressedSize: 16 << 20}, ingest.ReasonTooLarge, "expand to over 16 MiB"},
		{"more text than MaxTextSize", tinyPDF(strings.Repeat("word ", 400)), ingest.Options{MaxTextSize: 1000}, ingest.ReasonTooLarge, "MaxTextSize"},
		{"worker over its memory budget", xrefBombPDF, ingest.Options{ParseMemory: 64 << 20}, ingest.ReasonTooLarge, "memory"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			bad := filepath.Join(dir, "bad.pdf")
			write(t, bad, tc.data)
			write(t, filepath.Join(dir, "good.pdf"), tinyPDF("The narwhal census is complete."))
			tc.opts.Workers = 1 // the good file waits behind the bad one
			sum, err := runGuarded(t, context.Background(), ingest.New(openStore(t, nil), tc.opts), dir)
			if err != nil {
				t.Fatal(err)
			}
			if sum.Added != 1 {
				t.Errorf("added %d, want the good file (problems %v)", sum.Added, sum.Problems)
			}
			if len(sum.Problems) != 1 || sum.Problems[0].Path != bad || sum.Problems[0].Reason != tc.reason || !strings.Contains(sum.Problems[0].Detail, tc.detail) {
				t.Fatalf("problems = %v, want %s skipped as %q (%s)", sum.Problems, bad, tc.reason, tc.detail)
			}
		})
	}
}

// TestHostilePDFCancel: cancelling the context (Ctrl-C, a client that goes
// away from POST /v1/ingest) stops an ingest stuck in a PDF parse, which
// used to ignore it and hold the server's ingest slot until restart.
func TestHostilePDFCancel(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "stuck.pdf"), prevCyclePDF)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	in := ingest.New(openStore(t, nil), ingest.Options{ParseTimeout: time.Hour})
	_, err := runGuarded(t, ctx, in, dir)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

// TestTextFileOverMaxTextSize: the text cap applies to every format, not
// only those parsed in a worker.
func TestTextFileOverMaxTextSize(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "big.txt"), []byte(strings.Repeat("lorem ipsum ", 200)))
	sum, err := runGuarded(t, context.Background(), ingest.New(openStore(t, nil), ingest.Options{MaxTextSize: 1000}), dir)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Skipped[ingest.ReasonTooLarge] != 1 {
		t.Fatalf("problems = %v, want big.txt skipped as too large", sum.Problems)
	}
}
