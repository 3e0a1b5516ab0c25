package graphrag

import (
	"strings"
	"time"
)

// Document is one ingested unit: a file, or one row of a JSONL corpus.
type Document struct {
	// ID is stable across ingests: the absolute, cleaned path for a file,
	// RowDocID(corpus path, row id) for a JSONL corpus row.
	ID string
	// Path is where the document came from (a file path; for a JSONL row, the
	// corpus file's path).
	Path string
	// Title is a human title: the row's title, or the file's base name.
	Title string
	// Type is the lower-case file type without a dot ("pdf", "md", "go"),
	// "jsonl" for corpus rows.
	Type string
	// Hash is the hex SHA-256 of the content; it drives incremental ingest.
	Hash    string
	Size    int64
	ModTime time.Time
	// Metadata holds small extra facts (e.g. "source" of a corpus row,
	// MetaRole).
	Metadata map[string]string
}

// MetaRole is the Document.Metadata key that says what part a file plays
// in a source tree when it is not the code or documentation itself: one of
// the Role values. Stores rank such documents below the definitions they
// test or copy (see the conformance suite, retrievers/storetest).
const MetaRole = "role"

// Roles of a document (Document.Metadata[MetaRole]).
const (
	RoleTest      = "test"      // a test file (foo_test.go, test_foo.py, foo.spec.ts)
	RoleTestdata  = "testdata"  // under a testdata/ or fixtures directory
	RoleVendor    = "vendor"    // a vendored copy of another project's code
	RoleGenerated = "generated" // generated code ("Code generated ... DO NOT EDIT.")
)

// Chunk is a retrievable piece of a document.
type Chunk struct {
	// ID is DocID + "#" + Ordinal, see ChunkID.
	ID      string
	DocID   string
	Ordinal int
	Text    string
	// Heading is where the chunk sits in its document: the heading path of a
	// text section ("Install > From source") or the declaration of a code
	// chunk ("func NewReader(s string) *Reader"); "" when unknown.
	Heading string
	// Symbol is the name a chunk declares: the identifier of a code chunk
	// ("strings.NewReader"), the upstream work of a Debian copyright
	// file's header ("GNU Gzip"); "" for other prose.
	Symbol string
	// Kind says what the chunk is: "func", "type", "const", "var", "method"
	// for code, "section" for text under a heading, "" when unknown.
	Kind string
	// StartLine and EndLine are the 1-based, inclusive lines of the document
	// the chunk came from; 0 when unknown (e.g. a PDF page's text).
	StartLine, EndLine int
	// Embedding is nil when no embedder is configured.
	Embedding []float32
}

// Record is a document with all of its chunks. Stores write a record
// atomically: either the whole document with every chunk is there, or none of it.
type Record struct {
	Doc    Document
	Chunks []Chunk
}

// DocState is what incremental ingest needs to know of a stored document.
type DocState struct {
	ID   string
	Path string
	Hash string
}

// StoreStats summarises a store.
type StoreStats struct {
	Documents int
	Chunks    int
	// Embedder is the name of the embedder that built the store, "" for none.
	Embedder  string
	Dimension int
}

// RowDocID is the document id of the row rowID of the JSONL corpus at
// path. A row's id is scoped by the file it comes from, so rows of two
// corpora with the same id, or a row whose id is a file's path, are
// different documents.
func RowDocID(path, rowID string) string { return path + "#" + rowID }

// RowID is the corpus row id inside a document id made by RowDocID with
// this path (the document's Path); ok is false for any other id.
func RowID(docID, path string) (rowID string, ok bool) {
	if rowID, ok = strings.CutPrefix(docID, path+"#"); !ok || path == "" {
		return "", false
	}
	return rowID, true
}
