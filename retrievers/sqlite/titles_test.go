package sqlite_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/retrievers/sqlite"
)

func TestTitleLinks(t *testing.T) {
	ctx := context.Background()
	doc := func(id, title, typ, text string) graphrag.Record {
		return graphrag.Record{Doc: graphrag.Document{ID: id, Path: "/" + id, Title: title, Type: typ}, Chunks: []graphrag.Chunk{{Text: text}}}
	}
	recs := []graphrag.Record{
		doc("warrier", "Sachin Warrier", "txt", "Sachin Warrier is a playback singer who worked as a software engineer at Tata Consultancy Services and wrote Notes."),
		doc("tcs", "Tata Consultancy Services", "md", "Its head office is in Mumbai, Maharashtra."),
		doc("film", "Alien (film)", "txt", "A 1979 science fiction horror film."),
		doc("score", "Alien (soundtrack)", "txt", "The score for Alien by Jerry Goldsmith was released in 1979."),
	}
	for i := 0; i < 4; i++ { // an ambiguous title is never followed
		recs = append(recs, doc(fmt.Sprintf("notes-%d", i), "Notes", "txt", fmt.Sprintf("meeting minutes %d", i)))
	}
	for i := 0; i < 6; i++ {
		recs = append(recs, doc(fmt.Sprintf("filler-%d", i), fmt.Sprintf("Filler %d", i), "txt", "the engineer worked on something unrelated in another city"))
	}
	tests := []struct {
		name    string
		links   float64
		query   string
		filters graphrag.Filters
		want    []string // must be among the hits
		notWant []string
	}{
		{"bridge document found", 0.5, "Where is the company that Sachin Warrier worked for as a software engineer headquartered?", graphrag.Filters{}, []string{"warrier", "tcs"}, []string{"notes-0", "notes-1"}},
		{"parenthetical qualifier dropped", 0.5, "Who composed the score of the Jerry Goldsmith film?", graphrag.Filters{}, []string{"score", "film"}, nil},
		{"off without links", 0, "Where is the company that Sachin Warrier worked for as a software engineer headquartered?", graphrag.Filters{}, []string{"warrier"}, []string{"tcs"}},
		{"links followed within filters", 0.5, "Where is the company that Sachin Warrier worked for as a software engineer headquartered?", graphrag.Filters{Types: []string{"txt", "md"}}, []string{"warrier", "tcs"}, nil},
		{"links honour filters", 0.5, "Where is the company that Sachin Warrier worked for as a software engineer headquartered?", graphrag.Filters{Types: []string{"txt"}}, []string{"warrier"}, []string{"tcs"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rk := sqlite.DefaultRanking()
			rk.Links = tc.links
			s, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "s.db"), sqlite.Options{Ranking: &rk})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if err := s.Put(ctx, recs...); err != nil {
				t.Fatal(err)
			}
			res, err := s.Search(ctx, graphrag.Query{Text: tc.query, Mode: graphrag.ModeKeyword, Filters: tc.filters})
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]int{}
			for i, h := range res.Hits {
				got[h.Chunk.DocID] = i + 1
			}
			for _, w := range tc.want {
				if got[w] == 0 {
					t.Errorf("%q not among the hits %v", w, got)
				}
			}
			for _, w := range tc.notWant {
				if got[w] != 0 {
					t.Errorf("%q among the hits at %d", w, got[w])
				}
			}
		})
	}
	t.Run("links follow writes", func(t *testing.T) {
		s, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "s.db"), sqlite.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		if err := s.Put(ctx, recs[0]); err != nil {
			t.Fatal(err)
		}
		q := graphrag.Query{Text: "Sachin Warrier software engineer", Mode: graphrag.ModeKeyword}
		if res, _ := s.Search(ctx, q); len(res.Hits) != 1 {
			t.Fatalf("hits %d, want 1", len(res.Hits))
		}
		if err := s.Put(ctx, recs[1]); err != nil { // the title index must be rebuilt
			t.Fatal(err)
		}
		if res, _ := s.Search(ctx, q); len(res.Hits) != 2 || res.Hits[1].Chunk.DocID != "tcs" {
			t.Fatalf("after adding the linked document: %v", res.Hits)
		}
	})
}
