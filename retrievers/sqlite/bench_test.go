package sqlite_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/retrievers/sqlite"
	"github.com/graphrag/graphrag/retrievers/storetest"
)

// synth makes text with a Zipf-distributed vocabulary of pseudo-words (the
// shape of real text: a few words everywhere, most words rare), with the
// 40 most frequent being real English stop words.
type synth struct {
	vocab []string
	zipf  *rand.Zipf
	rng   *rand.Rand
}

func newSynth(seed uint64) *synth {
	rng := rand.New(rand.NewPCG(seed, 7))
	stops := strings.Fields("the of and to a in is was for on that with as by it at from his her he which an be this are were or had has their its not but they also who one after first new two been")
	vocab := append([]string(nil), stops...)
	syll := strings.Fields("ka ri to mo na se lu ven dor tal mi ra qu ex ol an ber gen stra pol vik zen ha lo")
	seen := map[string]bool{}
	for len(vocab) < 50000 {
		n := 2 + rng.IntN(3)
		var b strings.Builder
		for range n {
			b.WriteString(syll[rng.IntN(len(syll))])
		}
		if w := b.String(); !seen[w] {
			seen[w] = true
			vocab = append(vocab, w)
		}
	}
	return &synth{vocab: vocab, rng: rng, zipf: rand.NewZipf(rng, 1.07, 2, uint64(len(vocab)-1))}
}

func (s *synth) words(n int) string {
	ws := make([]string, n)
	for i := range ws {
		ws[i] = s.vocab[s.zipf.Uint64()]
	}
	return strings.Join(ws, " ")
}

// records makes n chunks in documents of 4 chunks, ~110 words each.
func (s *synth) records(n int) []graphrag.Record {
	var recs []graphrag.Record
	for i := 0; i < n; i += 4 {
		id := fmt.Sprintf("doc-%06d", i/4)
		r := graphrag.Record{Doc: graphrag.Document{ID: id, Path: "/bench/" + id + ".txt", Title: s.words(3), Type: "txt", ModTime: time.Unix(int64(i), 0)}}
		for j := 0; j < 4 && i+j < n; j++ {
			r.Chunks = append(r.Chunks, graphrag.Chunk{Ordinal: j, Text: s.words(80+s.rng.IntN(60)) + "."})
		}
		recs = append(recs, r)
	}
	return recs
}

// question makes a query: a few mid-frequency words and some common ones,
// like a question after stop words are dropped.
func (s *synth) question() string {
	var ws []string
	for range 2 {
		ws = append(ws, s.vocab[40+s.rng.IntN(400)])
	}
	for range 4 {
		ws = append(ws, s.vocab[400+s.rng.IntN(20000)])
	}
	ws = append(ws, "what", "is", "the")
	return strings.Join(ws, " ")
}

func buildStore(b *testing.B, chunks int, emb graphrag.Embedder) *sqlite.Store {
	b.Helper()
	s, err := sqlite.Open(context.Background(), filepath.Join(b.TempDir(), "bench.db"), sqlite.Options{Embedder: emb})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	recs := newSynth(1).records(chunks)
	for i := 0; i < len(recs); i += 1000 {
		if err := s.Put(context.Background(), recs[i:min(i+1000, len(recs))]...); err != nil {
			b.Fatal(err)
		}
	}
	return s
}

// BenchmarkSearch reports query latency percentiles (p50-ms, p95-ms) over
// a fixed set of synthetic questions at 5k and 100k chunks:
//
//	go test ./retrievers/sqlite -run '^$' -bench Search -benchtime 200x
func BenchmarkSearch(b *testing.B) {
	for _, n := range []int{5000, 100000} {
		for _, tc := range []struct {
			mode graphrag.SearchMode
			emb  graphrag.Embedder
		}{
			{graphrag.ModeKeyword, nil},
			{graphrag.ModeVector, storetest.NewHashEmbedder(384)},
			{graphrag.ModeHybrid, storetest.NewHashEmbedder(384)},
		} {
			b.Run(fmt.Sprintf("%s/chunks=%d", tc.mode, n), func(b *testing.B) {
				s := buildStore(b, n, tc.emb)
				sy := newSynth(2)
				qs := make([]string, 200)
				for i := range qs {
					qs[i] = sy.question()
				}
				// Warm up: page cache and the vector matrix.
				if _, err := s.Search(context.Background(), graphrag.Query{Text: qs[0], Mode: tc.mode}); err != nil {
					b.Fatal(err)
				}
				var lat []time.Duration
				b.ResetTimer()
				cpu0 := cpuSeconds()
				i := 0
				for b.Loop() {
					t := time.Now()
					if _, err := s.Search(context.Background(), graphrag.Query{Text: qs[i%len(qs)], Mode: tc.mode, K: 10}); err != nil {
						b.Fatal(err)
					}
					lat = append(lat, time.Since(t))
					i++
				}
				b.ReportMetric((cpuSeconds()-cpu0)*1000/float64(len(lat)), "cpu-ms/op")
				slices.Sort(lat)
				b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
				b.ReportMetric(float64(lat[len(lat)*95/100].Microseconds())/1000, "p95-ms")
			})
		}
	}
}

// BenchmarkPut reports ingest throughput in chunks/s without an embedder,
// writing batches of 1000 chunks (250 documents) per Put:
//
//	go test ./retrievers/sqlite -run '^$' -bench Put
func BenchmarkPut(b *testing.B) {
	recs := newSynth(3).records(20000)
	b.ResetTimer()
	var chunks int
	cpu0 := cpuSeconds()
	for b.Loop() {
		b.StopTimer()
		s, err := sqlite.Open(context.Background(), filepath.Join(b.TempDir(), "put.db"), sqlite.Options{})
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		for i := 0; i < len(recs); i += 250 {
			if err := s.Put(context.Background(), recs[i:min(i+250, len(recs))]...); err != nil {
				b.Fatal(err)
			}
		}
		chunks += 20000
		b.StopTimer()
		s.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(chunks)/b.Elapsed().Seconds(), "chunks/s")
	b.ReportMetric(float64(chunks)/(cpuSeconds()-cpu0), "chunks/cpu-s")
}

// BenchmarkCopies compares reading a passage's copies in named folders
// (Store.Copies, what retrieve does for a Debian passage filed in a
// sibling package's folder) with the keyword search among the files of
// the same name it replaced (the passage's first 30 words, 20 deep), on
// 100k synthetic chunks plus 1,000 packages' changelogs, each of 100
// source packages' shipped in ten sibling folders. Each search carries a
// word of its own, so that the store's recent lists (which answer a query
// asked before) are not what is timed.
//
//	go test ./retrievers/sqlite -run '^$' -bench Copies -benchtime 100x
func BenchmarkCopies(b *testing.B) {
	s := buildStore(b, 100000, nil)
	sy := newSynth(4)
	var recs []graphrag.Record
	var entries []string // a passage of each source package's changelog
	for src := range 100 {
		log := make([]string, 20)
		for i := range log {
			log[i] = fmt.Sprintf("src%d (1.%d-1) unstable; urgency=medium * %s.", src, 20-i, sy.words(60))
		}
		entries = append(entries, log[7])
		for bin := range 10 {
			id := fmt.Sprintf("/usr/share/doc/lib%s%d-%d/changelog.Debian.gz", sy.vocab[500+src], src, bin)
			r := graphrag.Record{Doc: graphrag.Document{ID: id, Path: id, Title: "changelog.Debian.gz", Type: "debian", ModTime: time.Unix(0, 0)}}
			for j, t := range log {
				r.Chunks = append(r.Chunks, graphrag.Chunk{Ordinal: j, Text: t})
			}
			recs = append(recs, r)
		}
	}
	if err := s.Put(context.Background(), recs...); err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.Run("read", func(b *testing.B) {
		i := 0
		for b.Loop() {
			src := i % len(entries)
			prefix := "/usr/share/doc/lib" + sy.vocab[500+src]
			got, err := s.Copies(ctx, entries[src], []string{prefix, prefix + "-utils", "/usr/share/doc/python3-" + sy.vocab[500+src]})
			if err != nil || len(got) != 10 {
				b.Fatalf("Copies: %d hits, %v; want the 10 copies", len(got), err)
			}
			i++
		}
	})
	b.Run("search", func(b *testing.B) {
		i := 0
		for b.Loop() {
			words := strings.Fields(entries[i%len(entries)])
			text := strings.Join(words[:30], " ") + fmt.Sprintf(" once%d", i)
			if _, err := s.Search(ctx, graphrag.Query{Text: text, Mode: graphrag.ModeKeyword, K: 20, Filters: graphrag.Filters{Source: "/changelog.Debian.gz"}}); err != nil {
				b.Fatal(err)
			}
			i++
		}
	})
}

// BenchmarkProbeThenSearch times what a question asks of the store before
// it is answered, the route's probe and then the retrieval's keyword
// search of the same text, against the search alone, on 100k synthetic
// chunks. Each question carries a word no chunk holds, so that no chunk
// holds every word and the probe ranks every chunk holding any (the
// costly case), and a word of its own, so that no earlier question's
// lists answer it. The probe's list of chunks holding any word is the
// search's first step, kept for it (bm25Any): "probe+search" costs little
// more than "search".
//
//	go test ./retrievers/sqlite -run '^$' -bench ProbeThenSearch -benchtime 100x
func BenchmarkProbeThenSearch(b *testing.B) {
	s := buildStore(b, 100000, nil)
	sy := newSynth(3)
	ctx := context.Background()
	question := func(i int) string { return sy.question() + fmt.Sprintf(" nowhere%d", i) }
	for _, tc := range []struct {
		name  string
		probe bool
	}{{"search", false}, {"probe+search", true}} {
		b.Run(tc.name, func(b *testing.B) {
			i := 0
			for b.Loop() {
				q := graphrag.Query{Text: question(i), Mode: graphrag.ModeKeyword, K: 10}
				if tc.probe {
					if _, err := s.Probe(ctx, q); err != nil {
						b.Fatal(err)
					}
				}
				if _, err := s.Search(ctx, q); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}
