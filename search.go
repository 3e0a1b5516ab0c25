package graphrag

import (
	"strconv"
	"time"
)

// SearchMode selects the ranked lists a search uses.
type SearchMode string

const (
	// ModeKeyword is full-text search only (BM25 in the embedded store).
	ModeKeyword SearchMode = "keyword"
	// ModeVector is nearest-neighbour search over embeddings only.
	ModeVector SearchMode = "vector"
	// ModeHybrid fuses the keyword and vector lists by reciprocal rank fusion.
	ModeHybrid SearchMode = "hybrid"
)

// Filters narrow a search or a filesystem tool. The zero value filters nothing.
type Filters struct {
	// Types are lower-case file types without a dot; empty means any.
	Types []string
	// Source, when set, keeps documents whose path or title contains it
	// (case-insensitive).
	Source string
	// Since and Until bound the document's modified time; zero means open.
	Since, Until time.Time
	// DocIDs, when set, keeps only these documents (hybrid with tools).
	DocIDs []string
}

// IsZero reports whether f filters nothing.
func (f Filters) IsZero() bool {
	return len(f.Types) == 0 && f.Source == "" && f.Since.IsZero() && f.Until.IsZero() && len(f.DocIDs) == 0
}

// Query is one search request to a store.
type Query struct {
	Text string
	Mode SearchMode
	// K is how many hits to return; stores apply a default of 10 when K <= 0.
	K       int
	Filters Filters
	// Vector is an optional precomputed query embedding; a store with an
	// embedder computes it from Text when it is nil.
	Vector []float32
}

// SearchResult is what a store returns for a query.
type SearchResult struct {
	Hits []Hit
	// Mode is the mode the store actually ran: a store with no embeddings
	// answers vector and hybrid queries with keyword search, and says so here.
	Mode SearchMode
	// Note explains a fallback, e.g. "no embedder configured: keyword search only".
	Note string
}

// Source says where a hit came from.
type Source struct {
	DocID   string
	Path    string
	Title   string
	Type    string
	ModTime time.Time
	// URL is set for web results.
	URL string
}

// Ranks are a hit's 1-based positions in each ranked list; 0 means absent.
type Ranks struct {
	Keyword int
	Vector  int
}

// Hit is one retrieved chunk (or tool or web result), best first.
type Hit struct {
	Chunk  Chunk
	Source Source
	// Score is higher-is-better: BM25 for keyword search, cosine similarity
	// for vector search, the RRF sum for hybrid search.
	Score float64
	Ranks Ranks
	// Copies are the other documents that hold this hit's text word for
	// word, best ranked first (Debian ships one changelog or copyright
	// file in the folders of every package built from a source): the hit
	// stands for them all, and a citation of it names them. A citation's
	// hit also names those whose passages hold every line it quotes.
	Copies []Source
}

// ChunkID is the id of the ordinal-th chunk of a document.
func ChunkID(docID string, ordinal int) string {
	return docID + "#" + strconv.Itoa(ordinal)
}
