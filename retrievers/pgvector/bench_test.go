package pgvector

// Benchmarks of the PostgreSQL store. They need GRAPHRAG_TEST_DATABASE_URL
// (make bench-pg sets it) and load their own data: a synthetic corpus of
// chunks with Zipf-distributed words and clustered 384-dimensional unit
// vectors. The 100k-chunk corpus is kept in the schema graphrag_bench between
// runs (DROP SCHEMA graphrag_bench CASCADE to reclaim the space).
//
//	go test -run '^$' -bench . -benchtime 200x -timeout 60m ./retrievers/pgvector/

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/internal/pgtest"
	"github.com/jackc/pgx/v5"
	"github.com/pgvector/pgvector-go"
	lcpgvector "github.com/tmc/langchaingo/vectorstores/pgvector"
)

const (
	benchDim      = 384
	benchCentres  = 256
	benchVocab    = 20000
	benchWords    = 60 // words per chunk
	benchPerDoc   = 10 // chunks per document
	benchSchema   = "graphrag_bench"
	benchLCSchema = "graphrag_bench_langchaingo"
)

// fixedEmbedder names the benchmark's vectors; Put is always given them, so
// Embed is never called for chunks. For queries it returns the vector
// registered for the query text.
type fixedEmbedder struct {
	mu      sync.Mutex
	queries map[string][]float32
}

func (*fixedEmbedder) Name() string   { return "bench-random-384" }
func (*fixedEmbedder) Dimension() int { return benchDim }
func (f *fixedEmbedder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make([][]float32, len(texts))
	for i, t := range texts {
		v, ok := f.queries[t]
		if !ok {
			return nil, fmt.Errorf("bench embedder: no vector for %q", t)
		}
		out[i] = v
	}
	return out, nil
}

// EmbedDocuments and EmbedQuery make it a langchaingo embeddings.Embedder too.
func (f *fixedEmbedder) EmbedDocuments(ctx context.Context, texts []string) ([][]float32, error) {
	return f.Embed(ctx, texts)
}
func (f *fixedEmbedder) EmbedQuery(ctx context.Context, text string) ([]float32, error) {
	v, err := f.Embed(ctx, []string{text})
	if err != nil {
		return nil, err
	}
	return v[0], nil
}

// corpus generates chunks deterministically.
type corpus struct {
	rng     *rand.Rand
	zipf    *rand.Zipf
	centres [][]float32
}

func newCorpus(seed uint64) *corpus {
	rng := rand.New(rand.NewPCG(seed, 7))
	c := &corpus{rng: rng, zipf: rand.NewZipf(rng, 1.07, 2, benchVocab-1)}
	for range benchCentres {
		v := make([]float32, benchDim)
		for i := range v {
			v[i] = float32(rng.NormFloat64())
		}
		c.centres = append(c.centres, normalise(v))
	}
	return c
}

func normalise(v []float32) []float32 {
	var n float64
	for _, x := range v {
		n += float64(x) * float64(x)
	}
	inv := float32(1 / math.Sqrt(n))
	for i := range v {
		v[i] *= inv
	}
	return v
}

// vector is a point near a random centre.
func (c *corpus) vector() []float32 {
	centre := c.centres[c.rng.IntN(len(c.centres))]
	v := make([]float32, benchDim)
	for i := range v {
		v[i] = centre[i] + float32(0.08*c.rng.NormFloat64())
	}
	return normalise(v)
}

func word(i uint64) string { return fmt.Sprintf("w%05d", i) }

func (c *corpus) text() string {
	var b strings.Builder
	for i := range benchWords {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(word(c.zipf.Uint64()))
	}
	return b.String()
}

var benchTypes = []string{"md", "pdf", "txt", "go", "html"}

// records returns n chunks in documents of benchPerDoc chunks, ids prefixed.
func (c *corpus) records(prefix string, n int) []graphrag.Record {
	var recs []graphrag.Record
	for d := 0; d*benchPerDoc < n; d++ {
		id := fmt.Sprintf("%s-%07d", prefix, d)
		r := graphrag.Record{Doc: graphrag.Document{
			ID: id, Path: "/bench/" + id + ".txt", Title: "Document " + id, Type: benchTypes[d%len(benchTypes)],
			Hash: id, Size: 1000, ModTime: time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(d) * time.Minute),
		}}
		for o := 0; o < benchPerDoc && d*benchPerDoc+o < n; o++ {
			r.Chunks = append(r.Chunks, graphrag.Chunk{Ordinal: o, Text: c.text(), Embedding: c.vector()})
		}
		recs = append(recs, r)
	}
	return recs
}

// benchQuery is a query text (2-3 mid-frequency words) and its vector.
type benchQuery struct {
	text string
	vec  []float32
}

func (c *corpus) queries(n int, emb *fixedEmbedder) []benchQuery {
	emb.mu.Lock()
	defer emb.mu.Unlock()
	if emb.queries == nil {
		emb.queries = map[string][]float32{}
	}
	var qs []benchQuery
	for i := range n {
		words := []string{word(uint64(50 + c.rng.IntN(2000))), word(uint64(50 + c.rng.IntN(2000)))}
		if i%2 == 0 {
			words = append(words, word(uint64(50+c.rng.IntN(5000))))
		}
		q := benchQuery{text: strings.Join(words, " "), vec: c.vector()}
		emb.queries[q.text] = q.vec
		qs = append(qs, q)
	}
	return qs
}

func benchURL(b *testing.B) string {
	b.Helper()
	if os.Getenv(pgtest.EnvURL) == "" && !pgtest.Required() {
		b.Skip("skipping PostgreSQL benchmark: " + pgtest.EnvURL + " is not set; run `make bench-pg`")
	}
	return pgtest.URL(b)
}

// BenchmarkPut measures ingest throughput through CopyFrom with embeddings
// given (dimension 384): a collection's first load (rows, then one HNSW
// build) and later loads into an indexed collection (HNSW inserts).
func BenchmarkPut(b *testing.B) {
	url := benchURL(b)
	schema := pgtest.NewSchema(b, url)
	migrateSchema(b, url, schema)
	ctx := context.Background()
	emb := &fixedEmbedder{}
	c := newCorpus(1)

	b.Run("first-load-10k", func(b *testing.B) {
		recs := c.records("first", 10000)
		b.ResetTimer()
		for i := range b.N {
			st, err := Open(ctx, url, Options{Schema: schema, Collection: fmt.Sprintf("first-%d-%d", b.N, i), Embedder: emb})
			if err != nil {
				b.Fatal(err)
			}
			if err := st.Put(ctx, recs...); err != nil {
				b.Fatal(err)
			}
			st.Close()
		}
		b.ReportMetric(float64(10000*b.N)/b.Elapsed().Seconds(), "chunks/s")
	})
	b.Run("copy-only-10k", func(b *testing.B) {
		// The same load without embeddings: COPY, tsvector and GIN only.
		recs := c.records("plain", 10000)
		b.ResetTimer()
		for i := range b.N {
			st, err := Open(ctx, url, Options{Schema: schema, Collection: fmt.Sprintf("plain-%d-%d", b.N, i)})
			if err != nil {
				b.Fatal(err)
			}
			if err := st.Put(ctx, recs...); err != nil {
				b.Fatal(err)
			}
			st.Close()
		}
		b.ReportMetric(float64(10000*b.N)/b.Elapsed().Seconds(), "chunks/s")
	})
	b.Run("incremental-1k-into-10k", func(b *testing.B) {
		st, err := Open(ctx, url, Options{Schema: schema, Collection: fmt.Sprintf("incr-%d", b.N), Embedder: emb})
		if err != nil {
			b.Fatal(err)
		}
		defer st.Close()
		if err := st.Put(ctx, c.records("base", 10000)...); err != nil {
			b.Fatal(err)
		}
		batches := make([][]graphrag.Record, b.N)
		for i := range batches {
			batches[i] = c.records(fmt.Sprintf("inc%d", i), 1000)
		}
		b.ResetTimer()
		for i := range b.N {
			if err := st.Put(ctx, batches[i]...); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(1000*b.N)/b.Elapsed().Seconds(), "chunks/s")
	})
}

// benchStore opens (loading once) the benchmark collection of n chunks.
func benchStore(b *testing.B, n int, opts Options) (*Store, *fixedEmbedder, []benchQuery) {
	b.Helper()
	url := benchURL(b)
	ctx := context.Background()
	emb := &fixedEmbedder{}
	opts.Schema, opts.Collection, opts.Embedder = benchSchema, fmt.Sprintf("bench-%d", n), emb
	pool, err := Connect(ctx, url, Options{Schema: benchSchema})
	if err != nil {
		b.Fatal(err)
	}
	defer pool.Close()
	if _, err := Migrate(ctx, pool, benchSchema); err != nil {
		b.Fatal(err)
	}
	// A first load of 1M chunks builds a graph of ~2 GB: give the build room.
	st, err := Open(ctx, withParam(url, "maintenance_work_mem", "3GB"), opts)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	c := newCorpus(42)
	stats, err := st.Stats(ctx)
	if err != nil {
		b.Fatal(err)
	}
	if stats.Chunks != n {
		if stats.Chunks != 0 {
			b.Fatalf("collection %s holds %d chunks, want %d: DROP SCHEMA %s CASCADE and run again", opts.Collection, stats.Chunks, n, benchSchema)
		}
		// One Put: a collection's first load builds its HNSW graph once.
		start := time.Now()
		if err := st.Put(ctx, c.records("b", n)...); err != nil {
			b.Fatal(err)
		}
		if _, err := st.pool.Exec(ctx, "ANALYZE documents; ANALYZE chunks"); err != nil {
			b.Fatal(err)
		}
		b.Logf("loaded %d chunks in %v", n, time.Since(start).Round(time.Millisecond))
	} else {
		// Regenerate the same random stream so queries match the data's distribution.
		c.records("b", n)
	}
	return st, emb, c.queries(500, emb)
}

// withParam adds a run-time parameter to a connection URL.
func withParam(url, name, value string) string {
	sep := "?"
	if strings.Contains(url, "?") {
		sep = "&"
	}
	return url + sep + name + "=" + value
}

// latencies runs fn b.N times over qs and reports p50 and p95 in ms.
func latencies(b *testing.B, qs []benchQuery, fn func(q benchQuery) (int, error)) {
	b.Helper()
	// Warm the caches and the plan.
	for _, q := range qs[:20] {
		if _, err := fn(q); err != nil {
			b.Fatal(err)
		}
	}
	d := make([]time.Duration, 0, b.N)
	hits := 0
	b.ResetTimer()
	for i := range b.N {
		start := time.Now()
		n, err := fn(qs[i%len(qs)])
		d = append(d, time.Since(start))
		if err != nil {
			b.Fatal(err)
		}
		hits += n
	}
	b.StopTimer()
	slices.Sort(d)
	ms := func(p float64) float64 { return float64(d[int(p*float64(len(d)-1))].Microseconds()) / 1000 }
	b.ReportMetric(ms(0.50), "p50-ms")
	b.ReportMetric(ms(0.95), "p95-ms")
	b.ReportMetric(float64(hits)/float64(b.N), "hits/op")
}

func benchmarkQueries(b *testing.B, n int) {
	st, _, qs := benchStore(b, n, Options{})
	ctx := context.Background()
	search := func(mode graphrag.SearchMode, f graphrag.Filters) func(q benchQuery) (int, error) {
		return func(q benchQuery) (int, error) {
			res, err := st.Search(ctx, graphrag.Query{Text: q.text, Mode: mode, K: 10, Filters: f})
			return len(res.Hits), err
		}
	}
	b.Run("hybrid", func(b *testing.B) { latencies(b, qs, search(graphrag.ModeHybrid, graphrag.Filters{})) })
	b.Run("vector", func(b *testing.B) { latencies(b, qs, search(graphrag.ModeVector, graphrag.Filters{})) })
	b.Run("keyword", func(b *testing.B) { latencies(b, qs, search(graphrag.ModeKeyword, graphrag.Filters{})) })
	b.Run("hybrid-filtered", func(b *testing.B) {
		latencies(b, qs, search(graphrag.ModeHybrid, graphrag.Filters{Types: []string{"pdf"}, Since: time.Date(2020, 1, 3, 0, 0, 0, 0, time.UTC)}))
	})
}

// BenchmarkQuery100k: query latency over 100,000 chunks (10,000 documents).
func BenchmarkQuery100k(b *testing.B) { benchmarkQueries(b, 100000) }

// BenchmarkQuery1M: the same over 1,000,000 chunks. Loading takes long on a
// small machine; it runs only with GRAPHRAG_BENCH_1M=1.
func BenchmarkQuery1M(b *testing.B) {
	if os.Getenv("GRAPHRAG_BENCH_1M") != "1" {
		b.Skip("set GRAPHRAG_BENCH_1M=1 to load and query 1,000,000 chunks")
	}
	benchmarkQueries(b, 1000000)
}

// BenchmarkRecall100k measures HNSW recall@10 against exact search (the
// same ORDER BY with index scans disabled) at ef_search 40 and 100.
func BenchmarkRecall100k(b *testing.B) {
	st, _, qs := benchStore(b, 100000, Options{})
	ctx := context.Background()
	c, _, err := st.collection(ctx)
	if err != nil {
		b.Fatal(err)
	}
	qs = qs[:100]
	exact := make([][]string, len(qs))
	for i, q := range qs {
		tx, err := st.pool.Begin(ctx)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := tx.Exec(ctx, "SET LOCAL enable_indexscan = off; SET LOCAL enable_bitmapscan = off"); err != nil {
			b.Fatal(err)
		}
		rows, err := tx.Query(ctx, fmt.Sprintf(`SELECT doc_id || '#' || ordinal FROM chunks WHERE collection_id = $1 AND embedding IS NOT NULL
			ORDER BY embedding::vector(%[1]d) <=> $2::vector(%[1]d) LIMIT 10`, c.dim), c.id, pgvector.NewVector(q.vec))
		if err != nil {
			b.Fatal(err)
		}
		exact[i], err = pgx.CollectRows(rows, pgx.RowTo[string])
		tx.Rollback(ctx)
		if err != nil {
			b.Fatal(err)
		}
	}
	for _, ef := range []int{40, 100} {
		b.Run(fmt.Sprintf("ef_search=%d", ef), func(b *testing.B) {
			s2, err := NewStore(ctx, st.pool, Options{Schema: benchSchema, Collection: st.opts.Collection, Embedder: st.opts.Embedder, EfSearch: ef})
			if err != nil {
				b.Fatal(err)
			}
			var found, total int
			i := 0
			latencies(b, qs, func(q benchQuery) (int, error) {
				res, err := s2.Search(ctx, graphrag.Query{Text: q.text, Vector: q.vec, Mode: graphrag.ModeVector, K: 10})
				if err != nil {
					return 0, err
				}
				if i >= 20 { // after the warm-up
					want := exact[slices.IndexFunc(qs, func(x benchQuery) bool { return x.text == q.text })]
					for _, h := range res.Hits {
						if slices.Contains(want, h.Chunk.ID) {
							found++
						}
					}
					total += len(want)
				}
				i++
				return len(res.Hits), nil
			})
			b.ReportMetric(float64(found)/float64(total), "recall@10")
		})
	}
}

// BenchmarkLangchaingo100k runs langchaingo's vectorstores/pgvector
// SimilaritySearch (vector only) over the same 100,000 chunks and vectors,
// beside graphrag's hybrid and vector queries of BenchmarkQuery100k.
func BenchmarkLangchaingo100k(b *testing.B) {
	st, emb, qs := benchStore(b, 100000, Options{})
	url := benchURL(b)
	ctx := context.Background()
	if _, err := st.pool.Exec(ctx, "CREATE SCHEMA IF NOT EXISTS "+benchLCSchema); err != nil {
		b.Fatal(err)
	}
	lcURL := withParam(url, "search_path", benchLCSchema+",public")
	lc, err := lcpgvector.New(ctx,
		lcpgvector.WithConnectionURL(lcURL),
		lcpgvector.WithEmbedder(emb),
		lcpgvector.WithCollectionName("bench"),
		lcpgvector.WithVectorDimensions(benchDim),
		lcpgvector.WithHNSWIndex(16, 64, "vector_cosine_ops"),
	)
	if err != nil {
		b.Fatal(err)
	}
	defer lc.Close()
	conn, err := pgx.Connect(ctx, lcURL)
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close(ctx)
	var n int
	if err := conn.QueryRow(ctx, `SELECT count(*) FROM langchain_pg_embedding`).Scan(&n); err != nil {
		b.Fatal(err)
	}
	if n == 0 {
		// Same rows as graphrag's collection, copied in bulk (langchaingo's
		// AddDocuments inserts row by row); the HNSW index is rebuilt after.
		start := time.Now()
		_, err := conn.Exec(ctx, `
			DROP INDEX IF EXISTS langchain_pg_embedding_embedding_hnsw;
			INSERT INTO langchain_pg_embedding (collection_id, embedding, document, cmetadata, uuid)
			SELECT (SELECT uuid FROM langchain_pg_collection WHERE name = 'bench'), c.embedding::vector(384), c.text, '{}'::json, gen_random_uuid()
			FROM `+benchSchema+`.chunks c JOIN `+benchSchema+`.collections k ON k.id = c.collection_id
			WHERE k.name = 'bench-100000';
			SET maintenance_work_mem = '256MB';
			CREATE INDEX langchain_pg_embedding_embedding_hnsw ON langchain_pg_embedding USING hnsw (embedding vector_cosine_ops) WITH (m = 16, ef_construction = 64);
			ANALYZE langchain_pg_embedding`)
		if err != nil {
			b.Fatal(err)
		}
		b.Logf("copied 100000 rows into langchaingo's table in %v", time.Since(start).Round(time.Millisecond))
	}
	b.Run("langchaingo-similarity", func(b *testing.B) {
		latencies(b, qs, func(q benchQuery) (int, error) {
			docs, err := lc.SimilaritySearch(ctx, q.text, 10)
			return len(docs), err
		})
	})
	b.Run("graphrag-hybrid", func(b *testing.B) {
		latencies(b, qs, func(q benchQuery) (int, error) {
			res, err := st.Search(ctx, graphrag.Query{Text: q.text, Mode: graphrag.ModeHybrid, K: 10})
			return len(res.Hits), err
		})
	})
	b.Run("graphrag-vector", func(b *testing.B) {
		latencies(b, qs, func(q benchQuery) (int, error) {
			res, err := st.Search(ctx, graphrag.Query{Text: q.text, Mode: graphrag.ModeVector, K: 10})
			return len(res.Hits), err
		})
	})
}
