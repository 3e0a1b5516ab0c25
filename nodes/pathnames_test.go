package nodes

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/retrievers/sqlite"
)

func TestSlashPaths(t *testing.T) {
	for q, want := range map[string][]string{
		"does tally/ledger round half up?":      {"tally/ledger"},
		"what does /opt/quux/etc hold":          {"/opt/quux/etc"},
		"import example.org/acme/widget. Why?":  {"example.org/acme/widget"},
		"is it and/or here":                     {"and/or"}, // the store tells it apart
		"sold 3/4 of them on 2025/06/01":        nil,
		"does it speak TCP/IP":                  nil,
		"a slash at the end / of a sentence":    nil,
		"compare spool/queue with spool/stack ": {"spool/queue", "spool/stack"},
	} {
		if got := slashPaths(q); !slices.Equal(got, want) {
			t.Errorf("slashPaths(%q) = %q, want %q", q, got, want)
		}
	}
}

// madeUpStore is an SQLite store of a few invented files: a package in a
// two-level folder, a package's licence notice, and a note.
func madeUpStore(tb testing.TB) *sqlite.Store {
	tb.Helper()
	files := map[string]string{
		"/src/tally/ledger/ledger.go": "// Package ledger keeps running totals for tally.\n// Amounts are rounded half away from zero, never half to even.\npackage ledger\n\nfunc Round(x float64) float64 { return x }\n",
		"/src/tally/tally.go":         "// Package tally counts things.\npackage tally\n",
		"/doc/frobnitz/copyright":     "Format: machine-readable copyright\nUpstream-Name: frobnitz\n\nFiles: *\nCopyright: 2011 Ada Example\nLicense: Zlib\n",
		"/notes/garden.md":            "# Garden\nThe tomatoes need water every second day; either and or or works in the notes.\n",
	}
	return docStore(tb, files, nil)
}

// TestStorePathIsAnExactName: a slash path naming a folder of the store
// ("tally/ledger") is an exact name of something in the files, as a
// qualified identifier is: it gets a keyword search and stays on the
// files, even asked as general knowledge with weak probe evidence. A word
// pair of the same shape names no folder and gets no such search.
func TestStorePathIsAnExactName(t *testing.T) {
	p, err := newPipeline(Deps{Searcher: madeUpStore(t)}, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, q := range []string{
		"is tally/ledger a lock-free stack or a bounded queue",
		"does tally/ledger round half up or half even",
	} {
		plan, _, _, err := p.plan(ctx, q, nil, false)
		if err != nil {
			t.Fatal(err)
		}
		if plan.Route != graphrag.RouteHybrid || !strings.Contains(plan.Reason, "names a path in your files") {
			t.Errorf("%q: route %s (%s), want hybrid: the path names a folder of the files", q, plan.Route, plan.Reason)
		}
	}
	for _, q := range []string{
		"is and/or a conjunction",
		"does tally/quire round half up", // a folder the store does not have
	} {
		if p.namesStorePath(ctx, q) {
			t.Errorf("%q: counted as a path of the store", q)
		}
	}
}

// TestDefinitionHeldByFilesNoModel: a question the classifier reads as a
// definition (class direct) is answered by the direct route only through a
// language model. Without one, when the files clearly hold its subject
// (fair evidence: above halfway, with names or rare words, and a file or
// folder named after it), the files answer it, even when the evidence is
// short of strong; with a model, with weak evidence, with the subject only
// mentioned, or when the direct route computes the answer, it stays
// direct.
func TestDefinitionHeldByFilesNoModel(t *testing.T) {
	st := madeUpStore(t)
	noModel, err := newPipeline(Deps{Searcher: st}, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	withModel, err := newPipeline(Deps{Searcher: st, Writer: &fakeWriter{}}, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	definition := prediction{Probs: map[graphrag.Route]float64{graphrag.RouteDirect: 0.8, graphrag.RouteVector: 0.2}, Class: classDirect, ClassProb: 0.8}.ranked()
	named := Evidence{Top: 0.7, Union: 0.7, Specific: 2.5, Named: true} // halfway and more, short of strong; a file is named after it
	mentioned := named
	mentioned.Named = false                                              // the files only mention it
	weak := Evidence{Top: 0.3, Union: 0.4, Specific: 2.5, Named: true}   // the files hold little of it
	everyday := Evidence{Top: 0.7, Union: 0.7, Specific: 0, Named: true} // only its everyday words
	opts := DefaultOptions()
	if !opts.fairEvidence(named) || opts.strongEvidence(named) || !opts.weakEvidence(weak) || opts.fairEvidence(everyday) {
		t.Fatalf("the evidence fixtures no longer sit in their bands (options %+v)", opts)
	}
	for _, c := range []struct {
		name, q string
		p       *pipeline
		ev      Evidence
		want    graphrag.Route
	}{
		{"no model, a file named after it", "what does quibblesort mean", noModel, named, graphrag.RouteVector},
		{"no model, only mentioned", "what does quibblesort mean", noModel, mentioned, graphrag.RouteDirect},
		{"no model, weak evidence", "what does quibblesort mean", noModel, weak, graphrag.RouteDirect},
		{"no model, everyday words only", "what does quibblesort mean", noModel, everyday, graphrag.RouteDirect},
		{"a model defines it", "what does quibblesort mean", withModel, named, graphrag.RouteDirect},
		{"computed directly", "what is 12 times 7", noModel, named, graphrag.RouteDirect},
	} {
		t.Run(c.name, func(t *testing.T) {
			route, _, _, why := c.p.combine(c.q, definition, c.ev, true, false, false, false)
			if route != c.want {
				t.Errorf("route %s (%s), want %s", route, why, c.want)
			}
		})
	}

	// End to end over the store: the classifier's reading and the probe's
	// evidence as graphrag run sees them.
	const q = "what license covers frobnitz"
	plan, ev, _, err := noModel.plan(context.Background(), q, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	if !isLocal(plan.Route) {
		t.Errorf("%q, no model: route %s (%s), want the files: they hold its subject (evidence %.2f)", q, plan.Route, plan.Reason, ev.Strength())
	}
}

// TestEvidenceNamed: a question's name or rare word that names a hit's
// file or the folder holding it makes the evidence Named; folders further
// up, everyday words and mere mentions do not.
func TestEvidenceNamed(t *testing.T) {
	hit := func(path, text string) graphrag.Hit {
		return graphrag.Hit{Chunk: graphrag.Chunk{Text: text}, Source: graphrag.Source{Path: path, Title: filepath.Base(path)}}
	}
	for _, c := range []struct {
		q, path string
		want    bool
	}{
		{"what license covers frobnitz", "/doc/frobnitz/copyright", true},
		{"what is wibblectl", "/man/man8/wibblectl.8.gz", true},
		{"what license covers frobnitz", "/doc/other/copyright", false},
		{"what is frobnitz", "/frobnitz/share/doc/notes.txt", false}, // a folder far up
		{"what license covers frobnitz", "bundled:corpus.jsonl.gz", false},
	} {
		ev := measureEvidence(contentTerms(c.q), []graphrag.Hit{hit(c.path, "License: Zlib. frobnitz and wibblectl are mentioned here.")}, 5)
		if ev.Named != c.want {
			t.Errorf("%q over %s: Named %v, want %v", c.q, c.path, ev.Named, c.want)
		}
	}
}
