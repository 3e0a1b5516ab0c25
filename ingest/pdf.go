package ingest

import (
	"bytes"
	"fmt"
	"io"

	"github.com/ledongthuc/pdf"
)

// Bounds of checkPDF's walk of a PDF's page tree. The PDF library walks the
// same tree (and each page's Parent chain, for inherited resources) with no
// bound, so a cycle of 244 bytes spins it forever; checkPDF walks it first,
// with these bounds, and refuses the file before the library gets to loop.
const (
	// maxPDFTreeDepth: writers balance page trees (a million pages fit in
	// four levels of 32 kids), so a path of 64 nodes is a cycle, through
	// Kids or Parent, not a real document.
	maxPDFTreeDepth = 64
	// maxPDFTreeNodes: a tree of more nodes is refused. Twice the page count
	// of the longest printed books (about 50,000 pages) leaves room for the
	// inner nodes; a Kids array that lists one subtree many times (a tree
	// that grows exponentially in a few bytes) runs into it fast.
	maxPDFTreeNodes = 100_000
)

// checkPDF walks the page tree of the PDF in data within the bounds above,
// follows each page's Parent chain the way the library will, and expands
// every page's content streams (where the text comes from) to count their
// decompressed bytes, summed over the file, against maxDecompressed: a
// stream that refers to itself, or one content stream listed a thousand
// times, cannot make it expand without end. It reports the first bound
// crossed as an error (wrapping errOverLimit for a size, plain for a
// cycle). It cannot bound the library's own object resolution (an object
// stream that Extends itself loops inside it): the parse deadline of the
// worker process does (see isolate.go).
func checkPDF(data []byte, maxDecompressed int64) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("malformed PDF (%v)", r)
		}
	}()
	r, err := pdf.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return fmt.Errorf("pdf: %w", err)
	}
	w := pdfWalk{budget: maxDecompressed, limit: maxDecompressed}
	if err := w.node(r.Trailer().Key("Root").Key("Pages"), 0); err != nil {
		return err
	}
	// The library visits NumPage pages, each by a walk from the root: a
	// page count far beyond the tree's pages is a loop of empty walks.
	if n := r.NumPage(); n > w.pages+maxPDFTreeDepth || n < 0 {
		return fmt.Errorf("pdf: the file claims %d pages but its page tree holds %d", n, w.pages)
	}
	return nil
}

// pdfWalk is the state of one checkPDF walk.
type pdfWalk struct {
	nodes, pages int
	budget       int64 // decompressed content bytes still allowed
	limit        int64
}

func (w *pdfWalk) node(v pdf.Value, depth int) error {
	w.nodes++
	if w.nodes > maxPDFTreeNodes {
		return overLimit(fmt.Sprintf("the page tree has over %d nodes", maxPDFTreeNodes))
	}
	if depth > maxPDFTreeDepth {
		return fmt.Errorf("pdf: the page tree is over %d levels deep (a cycle in its Kids?)", maxPDFTreeDepth)
	}
	switch v.Key("Type").Name() {
	case "Pages":
		kids := v.Key("Kids")
		for i := 0; i < kids.Len(); i++ {
			if err := w.node(kids.Index(i), depth+1); err != nil {
				return err
			}
		}
	case "Page":
		w.pages++
		// The library looks up inherited resources up the Parent chain
		// until it ends: a cycle there never ends.
		up := 0
		for p := v.Key("Parent"); !p.IsNull(); p = p.Key("Parent") {
			if up++; up > maxPDFTreeDepth {
				return fmt.Errorf("pdf: page %d's Parent chain is over %d long (a cycle?)", w.pages, maxPDFTreeDepth)
			}
		}
		return w.contents(v.Key("Contents"))
	}
	return nil
}

// contents expands a page's content stream, or array of them, against the
// budget.
func (w *pdfWalk) contents(c pdf.Value) error {
	streams := []pdf.Value{c}
	if c.Kind() == pdf.Array {
		streams = streams[:0]
		for i := 0; i < c.Len(); i++ {
			streams = append(streams, c.Index(i))
		}
	}
	for _, s := range streams {
		if s.Kind() != pdf.Stream {
			continue
		}
		rc := s.Reader()
		n, err := io.Copy(io.Discard, io.LimitReader(rc, w.budget+1))
		rc.Close()
		if err != nil {
			return fmt.Errorf("pdf: page %d content: %w", w.pages, err)
		}
		if w.budget -= n; w.budget < 0 {
			return overLimit(fmt.Sprintf("the page contents expand to over %s (a compression bomb?)", sizeText(w.limit)))
		}
	}
	return nil
}

// sizeText writes a byte count for a message: "64 MiB", "1.5 KiB", "12 bytes".
func sizeText(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}
