// Package server serves graphrag to other programs: an HTTP API
// (graphrag serve) and a newline-delimited JSON protocol on stdin and
// stdout (graphrag serve --stdio) for desktop apps that run graphrag as a
// child process. Both run the RAG graph of package nodes through the small
// Runner interface and can stream its events as they happen: each node's
// start and end with its duration, each decision with its reason, and the
// answer's tokens.
//
// # HTTP
//
//	POST /v1/query    {"query": "...", "history": [{"query": "...", "answer": "..."}],
//	                   "options": {"max_steps": 10, "timeout_ms": 30000, "text": true},
//	                   "stream": "json" | "ndjson" | "sse"}
//	                  or {"query": "...", "thread": "NAME"}: the server keeps the
//	                  turns (Config.Threads) instead of the client sending history
//	                  or {"resume": {"token": "...", "allow": true}}: answers a paused query
//	POST /v1/ingest   {"paths": ["/abs/dir", ...]}   (none: every allowed root)
//	GET  /v1/graph    the graph as Mermaid; ?format=dot for Graphviz
//	GET  /            a web page: ask, watch the graph run, open the sources
//	GET  /healthz     the process is up
//	GET  /readyz      the store answers and the server is not shutting down
//	GET  /metrics     Prometheus text format
//
// A query is answered with one JSON object (QueryResponse: the answer,
// citations and sources with ids and scores, route, plan, stop reason,
// notes, usage and a trace summary). With "stream": "ndjson" or the header
// "Accept: application/x-ndjson" it is answered with one Event per line
// instead, each flushed as it happens; with "stream": "sse" or "Accept:
// text/event-stream", as server-sent events whose event name is the
// Event's type. Either stream ends with a "result" event holding the
// QueryResponse, an "error" event, or an "interrupt" event (a paused
// query, below). A client that disconnects cancels
// its run.
//
// Events of a subgraph's nodes carry "subgraph" (the RAG graph's retrieve
// node is one: select, then its branches keyword and vector, or search,
// web or files, then fuse) and those of a parallel branch their 1-based
// "branch"; Trace.Nodes marks them the same way.
//
// Every error is {"error": {"code": "...", "message": "..."}} with a
// status that fits: 400 bad_json, missing_query, bad_request,
// invalid_query (a question past nodes.MaxQueryBytes or MaxQueryWords),
// max_steps (options.max_steps too low for the question); 401
// unauthorized (with WWW-Authenticate); 403 forbidden (an ingest path
// outside the allowed roots), forbidden_host, cross_origin; 404 (and
// unknown_interrupt: a paused query's token that is unknown, used or
// expired); 405;
// 413 body_too_large; 429 too_many_requests (with Retry-After); 501
// not_configured; 503 not_ready, unavailable (the store or a model server
// cannot be reached; with Retry-After); 504 timeout.
//
// Under load, Config.MaxConcurrent queries run at once and up to
// Config.QueueLength more wait for a worker, each at most Config.QueueWait;
// only a query that finds the queue full, or waits past its bound, is
// answered 429, with a Retry-After estimated from the queue and the mean
// query time. /metrics reports the queue's depth and capacity, the wait
// (a histogram), the refusals by reason, and go_goroutines.
//
// The server listens on 127.0.0.1:8080 by default and accepts only the
// Host names of the loopback interface there (DNS-rebinding defence);
// browsers' cross-site posts are refused (CSRF defence); Config.Token
// adds a bearer token, compared in constant time. On shutdown it stops
// accepting connections and lets queries in flight finish, up to
// Config.ShutdownTimeout.
//
// Try it on the sample files (these commands work as written from the
// repository root):
//
//	graphrag ingest examples/sample
//	graphrag serve --ingest-root examples/sample &
//
//	curl -s localhost:8080/healthz
//	curl -s localhost:8080/v1/query -d '{"query": "When does the nightly backup run?"}'
//	curl -sN localhost:8080/v1/query -H 'Accept: application/x-ndjson' -d '{"query": "When does the nightly backup run?"}'
//	curl -sN localhost:8080/v1/query -d '{"query": "When does the nightly backup run?", "stream": "sse"}'
//	curl -s localhost:8080/v1/query -d '{"query": "Where does it go?", "history": [{"query": "When does the nightly backup run?", "answer": "At 02:30."}]}'
//	curl -s localhost:8080/v1/ingest -d '{}'
//	curl -s localhost:8080/v1/ingest -d "{\"paths\": [\"$PWD/examples/sample/notes\"]}"
//	curl -s localhost:8080/v1/graph
//	curl -s 'localhost:8080/v1/graph?format=dot'
//	curl -s localhost:8080/metrics
//
// With a token (graphrag serve --token s3cret):
//
//	curl -s localhost:8080/v1/query -H 'Authorization: Bearer s3cret' -d '{"query": "When does the nightly backup run?"}'
//
// # Paused queries
//
// A server whose graph can pause (Config.Checkpoints; graphrag serve
// --confirm-web) asks before a question leaves the machine for the web
// search. Such a query is answered, with status 200, by a QueryResponse
// holding only "interrupt" (and the trace so far), or, when streaming, by
// a final "interrupt" event instead of "result":
//
//	{"interrupt": {"token": "KX2…", "kind": "confirm_web",
//	               "message": "Send \"…\" to the web search (http://localhost:8888)? …",
//	               "query": "what is the latest news about the mars rover?",
//	               "provider": "http://localhost:8888",
//	               "expires_at": "2026-11-25T10:12:00Z"}}
//
// Nothing has been sent at that point. The client asks its user and
// answers with a second request to the same endpoint, in any framing:
//
//	POST /v1/query    {"resume": {"token": "KX2…", "allow": true}}
//
// true sends the question and the run goes on from where it paused; false
// sends nothing and the run answers from the local files, saying so in
// "notes" ("web search declined: nothing was sent …"). The answer goes to
// the conversation named by the paused query's "thread", if any. A token
// answers once: an unknown, used or expired token is 404
// unknown_interrupt (ask the question again); a resume on a server that
// does not pause is 501 not_configured, and one without "allow", or with
// "query", "history" or "thread", is 400 bad_request. Paused queries wait
// Config.PauseTTL (10 minutes) and at most Config.MaxPaused (100) wait at
// once, the oldest dropped first; their checkpoints are deleted when they
// end, expire or are dropped, so nothing accumulates. /metrics reports
// graphrag_queries_paused and counts them as
// graphrag_queries_total{outcome="interrupted"}.
//
//	graphrag serve --web searxng=http://localhost:8888 --confirm-web &
//	curl -s localhost:8080/v1/query -d '{"query": "what is the latest news about the mars rover?"}'
//	curl -s localhost:8080/v1/query -d '{"resume": {"token": "<the token>", "allow": false}}'
//
// # Stdio
//
// One JSON request per line on stdin; one JSON message per line on stdout,
// and nothing else is ever written there (logs go to Config.Logger, which
// graphrag points at stderr):
//
//	→ {"id": 1, "method": "query", "params": {"query": "...", "history": [...], "options": {...}}}
//	← {"id": null, "request": 1, "event": {"type": "node_start", "node": "route", ...}}
//	← {"id": null, "request": 1, "event": {"type": "token", "text": "The "}}
//	← {"id": 1, "result": {"answer": "...", "citations": [...], ...}}
//
// A paused query (see Paused queries) ends with an interrupt instead of a
// result, and the "resume" method answers it:
//
//	→ {"id": 1, "method": "query", "params": {"query": "latest news about the mars rover?"}}
//	← {"id": null, "request": 1, "event": {...}}
//	← {"id": 1, "interrupt": {"token": "KX2…", "kind": "confirm_web", "query": "...", "provider": "...", ...}}
//	→ {"id": 2, "method": "resume", "params": {"token": "KX2…", "allow": false}}
//	← {"id": null, "request": 2, "event": {...}}
//	← {"id": 2, "result": {"answer": "...", "notes": ["web search declined: ..."], ...}}
//
// Events carry "id": null, as the protocol asks, and the id of the
// request they belong to in "request", so that a client running several
// requests at once can tell them apart. The final message carries the
// request's id with a "result" or an "error". Methods: "query" (params as
// the body of POST /v1/query; "stream": "json" sends no events), "resume"
// (params {"token", "allow"}, and "options" and "stream" as a query's), "ingest"
// (params as POST /v1/ingest), "graph" ({"format": "dot"} optional),
// "cancel" ({"id": <a running request>}) and "ping". Ids are numbers or
// strings. A line that is not a request is answered with
// {"id": null, "error": {...}} and the loop goes on. Requests run
// concurrently, up to Config.MaxConcurrent queries; more wait in the
// same queue as HTTP's (and are refused with "too_many_requests" past
// it); lines never interleave. At EOF on stdin the
// requests in flight finish and ServeStdio returns.
//
//	echo '{"id": 1, "method": "ping"}' | graphrag serve --stdio
//	echo '{"id": 1, "method": "query", "params": {"query": "When does the nightly backup run?"}}' | graphrag serve --stdio
//	echo '{"id": 1, "method": "query", "params": {"query": "When does the nightly backup run?", "stream": "json"}}' | graphrag serve --stdio 2>/dev/null
//	printf '%s\n' '{"id": 1, "method": "graph"}' '{"id": 2, "method": "ingest", "params": {}}' | graphrag serve --stdio --ingest-root examples/sample
//
// # Metrics
//
// graphrag_http_requests_total{path,code}, graphrag_queries_total{outcome},
// graphrag_routes_total{route,by}, graphrag_query_duration_seconds
// (histogram), graphrag_queries_in_flight,
// graphrag_llm_calls_total, graphrag_llm_tokens_total{kind} and
// graphrag_fallbacks_total (custom events named "fallback" emitted by
// nodes), written by hand in the text exposition format.
package server
