package web_test

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"

	"github.com/graphrag/graphrag/retrievers/web"
)

func ExampleSearxNG_SearchWeb() {
	// A stand-in for a SearxNG instance with format=json enabled.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"query": "searxng", "results": [
			{"url": "https://docs.searxng.org/", "title": "SearXNG documentation", "content": "A privacy-respecting metasearch engine.", "engine": "duckduckgo"},
			{"url": "https://github.com/searxng/searxng", "title": "searxng/searxng", "content": "Source code.", "engine": "github"}
		], "unresponsive_engines": []}`)
	}))
	defer srv.Close()

	searx, err := web.NewSearxNG(srv.URL, srv.Client(), web.SearxNGOptions{Language: "en"})
	if err != nil {
		log.Fatal(err)
	}
	hits, err := searx.SearchWeb(context.Background(), "searxng", 5)
	if err != nil {
		log.Fatal(err)
	}
	for _, h := range hits {
		fmt.Printf("%.2f %s — %s\n", h.Score, h.Source.URL, h.Chunk.Text)
	}
	// Output:
	// 1.00 https://docs.searxng.org/ — A privacy-respecting metasearch engine.
	// 0.50 https://github.com/searxng/searxng — Source code.
}
