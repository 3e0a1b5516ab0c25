// Package web searches the web for the RAG graph's web route, through a
// provider the user runs themselves. Results come back as graphrag hits with
// Source.URL set, so they are graded and cited like local chunks.
//
// The one provider is SearxNG (https://docs.searxng.org), a self-hostable
// metasearch engine, through its JSON API (GET /search?q=...&format=json).
// Web search is off unless a SearxNG URL is configured.
//
// # Running SearxNG
//
// With graphrag's docker-compose.yml, the "web" profile starts it:
//
//	docker compose --profile web up -d
//
// Or on its own:
//
//	docker run -d --name searxng -p 8888:8080 \
//	  -v "$PWD/searxng:/etc/searxng" searxng/searxng
//
// SearxNG answers JSON only when its settings.yml allows it; otherwise it
// answers 403 Forbidden and SearchWeb returns ErrJSONDisabled. Add json to
// the formats in /etc/searxng/settings.yml and restart it:
//
//	search:
//	  formats:
//	    - html
//	    - json
//
// For a private instance used by one program, also turn the bot limiter off
// (server: limiter: false), or it may answer 429 Too Many Requests. Then
// point graphrag at http://localhost:8888.
package web
