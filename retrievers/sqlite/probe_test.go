package sqlite_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/retrievers/sqlite"
)

// TestProbe: the probe is BM25 alone over the chunks that hold every word,
// or any word when none holds all, best first, honouring filters, with no
// document reached only through a title link (which a keyword Search adds).
func TestProbe(t *testing.T) {
	ctx := context.Background()
	s, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "s.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	doc := func(id, title, typ, text string) graphrag.Record {
		return graphrag.Record{
			Doc:    graphrag.Document{ID: id, Path: "/notes/" + id + "." + typ, Title: title, Type: typ, Hash: id},
			Chunks: []graphrag.Chunk{{ID: graphrag.ChunkID(id, 0), DocID: id, Text: text}},
		}
	}
	err = s.Put(ctx,
		doc("boiler", "Boiler", "md", "The boiler was serviced in March; the engineer replaced the pressure valve. See Plumber."),
		doc("plumber", "Plumber", "md", "Call the plumber on weekdays."),
		doc("garden", "Garden", "txt", "Tomatoes go outside after the last frost; the boiler room is dry."),
		doc("reader", "Reader", "go", "Read returns io.EOF at the end of the input."),
		doc("io", "IO", "go", "The io package: Read until EOF, then close."),
	)
	if err != nil {
		t.Fatal(err)
	}

	res, err := s.Probe(ctx, graphrag.Query{Text: "when was the boiler serviced", K: 5})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, h := range res.Hits {
		got = append(got, h.Source.DocID)
	}
	if len(got) != 1 || got[0] != "boiler" {
		t.Errorf("probe hits %v, want [boiler]: the one chunk with every word, no linked Plumber", got)
	}
	full, err := s.Search(ctx, graphrag.Query{Text: "when was the boiler serviced", Mode: graphrag.ModeKeyword, K: 5})
	if err != nil {
		t.Fatal(err)
	}
	if len(full.Hits) != 3 {
		t.Errorf("keyword search found %d hits, want 3 (the linked Plumber too): the test no longer tells the probe from a search", len(full.Hits))
	}
	if res.Mode != graphrag.ModeKeyword || res.Hits[0].Ranks.Keyword != 1 || res.Hits[0].Chunk.Text == "" {
		t.Errorf("mode %q, first hit %+v: want keyword mode, ranks and text", res.Mode, res.Hits[0])
	}

	res, err = s.Probe(ctx, graphrag.Query{Text: "boiler pressure tomatoes", K: 5})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hits) != 2 {
		t.Errorf("no chunk holds every word: %d hits, want the 2 that hold some", len(res.Hits))
	}

	res, err = s.Probe(ctx, graphrag.Query{Text: "what is io.EOF", K: 5})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hits) != 1 || res.Hits[0].Source.DocID != "reader" {
		t.Errorf("a dotted name: %d hits, want the one chunk that spells io.EOF", len(res.Hits))
	}

	res, err = s.Probe(ctx, graphrag.Query{Text: "boiler", Filters: graphrag.Filters{Types: []string{"txt"}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hits) != 1 || res.Hits[0].Source.DocID != "garden" {
		t.Errorf("filtered probe: %d hits, want the garden note only", len(res.Hits))
	}

	if _, err := s.Probe(ctx, graphrag.Query{Text: "  "}); !errors.Is(err, graphrag.ErrInvalidQuery) {
		t.Errorf("blank probe: err %v, want ErrInvalidQuery", err)
	}
}
