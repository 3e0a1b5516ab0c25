package web

import (
	"context"
	"errors"

	"github.com/graphrag/graphrag"
)

// Searcher is a web search provider. It is the RAG graph's WebSearcher:
// hits carry Source.URL, Source.Title and the snippet as Chunk.Text, best
// first, with Score decreasing by rank.
type Searcher interface {
	SearchWeb(ctx context.Context, query string, k int) ([]graphrag.Hit, error)
}

// Errors from providers; match them with errors.Is. A missing base URL wraps
// graphrag.ErrNotConfigured, an empty query graphrag.ErrInvalidQuery.
var (
	// ErrJSONDisabled: SearxNG answered 403 because its settings.yml does not
	// list json under search.formats.
	ErrJSONDisabled = errors.New("SearxNG JSON format is not enabled")
	// ErrRateLimited: the provider answered 429 Too Many Requests.
	ErrRateLimited = errors.New("rate limited by the search provider")
	// ErrBadStatus: any other non-2xx answer.
	ErrBadStatus = errors.New("unexpected HTTP status from the search provider")
	// ErrBadResponse: the body is not the JSON the provider should send.
	ErrBadResponse = errors.New("malformed response from the search provider")
	// ErrResponseTooLarge: the body is over the configured size limit.
	ErrResponseTooLarge = errors.New("search response too large")
	// ErrUnavailable: the provider could not be reached, timed out, or all
	// of its engines failed.
	ErrUnavailable = errors.New("search provider unavailable")
)
