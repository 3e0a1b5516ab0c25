package ingest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/graphrag/graphrag/internal/text"
	"github.com/ledongthuc/pdf"
)

// Loaded is the text of one file.
type Loaded struct {
	// Title overrides the file's base name when set (an HTML <title>).
	Title string
	Text  string
	// Sections, when set, are the parts of Text that chunks keep apart
	// (declarations of code, text under headings), with their place in the
	// file; when nil, the ingester finds them from the file's type.
	Sections []Section
	// Metadata is added to the document's (e.g. RoleKey).
	Metadata map[string]string
	// Type, when set, is the document's type instead of the file's
	// extension ("man" for a manual page).
	Type string
}

// Loader extracts the text of a file from its content. path is for
// messages and for loaders that care about the name.
type Loader func(ctx context.Context, path string, data []byte) (Loaded, error)

// ErrNotText: the content is not text (a binary file).
var ErrNotText = errors.New("binary content")

// Skip reasons counted in Summary.Skipped.
const (
	ReasonBinary      = "binary"
	ReasonUnreadable  = "unreadable"
	ReasonEmpty       = "empty"
	ReasonNoText      = "no extractable text"
	ReasonTooLarge    = "too large"
	ReasonHidden      = "hidden file"
	ReasonSymlinkOut  = "symlink leaving the root"
	ReasonSymlinkIn   = "symlink (target ingested under its own path)"
	ReasonNotRegular  = "not a regular file"
	ReasonParseFailed = "could not be parsed"
	ReasonBadLine     = "bad JSONL line"
	ReasonDuplicateID = "duplicate id" // a JSONL row whose id another file of the run has
	// ReasonInvalidID: a document whose id no store can keep
	// (graphrag.CheckDocID: a file name that is not UTF-8, a JSONL id with a
	// NUL). It is skipped, and the rest of the batch is written.
	ReasonInvalidID = "invalid document id"
	// ReasonEmptiedFolder: a folder given to Run lists no file now, although
	// documents from under it are stored (an unplugged disk's empty mount
	// point): they are kept, not deleted.
	ReasonEmptiedFolder = "folder empty now, its documents kept"
)

// DefaultLoaders maps lower-case extensions (without the dot) to loaders:
// plain text and Markdown, HTML, PDF, Word (docx), OpenDocument text
// (odt), EPUB and common source code; manual pages (.1 to .9) are found by
// their content. Files with
// other extensions are loaded as text if their content is text, and
// skipped as binary otherwise. JSONL corpora (.jsonl, .ndjson) are handled
// apart, one document per line.
func DefaultLoaders() map[string]Loader {
	m := map[string]Loader{}
	for _, ext := range strings.Fields(textExts + " " + codeExts) {
		m[ext] = loadText
	}
	for _, ext := range []string{"html", "htm", "xhtml"} {
		m[ext] = loadHTML
	}
	m["pdf"] = loadPDF
	m["docx"] = loadDocx
	m["odt"] = loadODT
	m["epub"] = loadEPUB
	return m
}

const (
	textExts = "txt text md markdown mdx rst org adoc asciidoc tex csv tsv log"
	codeExts = "go py pyi js mjs cjs ts tsx jsx java kt kts scala c h cc cpp cxx hpp hh cs fs rs rb php swift m mm " +
		"sh bash zsh fish ps1 bat sql r jl lua pl pm hs ml ex exs erl clj cljs dart vue svelte css scss sass less " +
		"json yaml yml toml ini cfg conf xml proto graphql tf hcl gradle cmake mk dockerfile makefile"
)

// loadText reads a text file; a Debian machine-readable copyright file is
// cut into its stanzas (see loadDEP5).
func loadText(_ context.Context, _ string, data []byte) (Loaded, error) {
	s, ok := text.Decode(data)
	if !ok {
		return Loaded{}, ErrNotText
	}
	if isDEP5(s) {
		return loadDEP5(s), nil
	}
	return Loaded{Text: s}, nil
}

// loadHTML reads an HTML page's text, cut into sections at its h1-h6
// headings, with lines that map to the page source.
func loadHTML(_ context.Context, _ string, data []byte) (Loaded, error) {
	src, ok := text.Decode(data)
	if !ok {
		return Loaded{}, ErrNotText
	}
	p := parseHTML(src)
	return Loaded{Title: p.title, Text: strings.Join(p.lines, "\n"), Sections: headingSections(p.lines, p.heads, p.lineNos)}, nil
}

// loadPDF extracts the text of each page, pages separated by blank lines.
// The PDF library panics on some malformed files: that becomes an error.
func loadPDF(ctx context.Context, path string, data []byte) (l Loaded, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("pdf %s: malformed file (%v)", filepath.Base(path), r)
		}
	}()
	r, err := pdf.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return Loaded{}, fmt.Errorf("pdf: %w", err)
	}
	var b strings.Builder
	for i := 1; i <= r.NumPage(); i++ {
		if err := ctx.Err(); err != nil {
			return Loaded{}, err
		}
		p := r.Page(i)
		if p.V.IsNull() {
			continue
		}
		txt := pdfPageText(p)
		if strings.TrimSpace(txt) == "" {
			var err error
			if txt, err = p.GetPlainText(nil); err != nil {
				return Loaded{}, fmt.Errorf("pdf page %d: %w", i, err)
			}
		}
		if txt = strings.TrimSpace(txt); txt != "" {
			if b.Len() > 0 {
				b.WriteString("\n\n")
			}
			b.WriteString(txt)
		}
	}
	return Loaded{Text: strings.ToValidUTF8(b.String(), "\uFFFD")}, nil
}

// readAll reads at most limit bytes; more is an error.
func readAll(r io.Reader, limit int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, errTooLarge
	}
	return data, nil
}

var errTooLarge = errors.New("file too large")
