// Package llm puts local language models behind the RAG graph's decision
// interfaces: a Planner for the route node, a Grader and a Rewriter for
// evaluate, a Writer for generate, a Judge for validate, and an Embedder;
// and a Captioner that describes images with a vision model, for ingest.
//
// Two backends are supported through github.com/tmc/langchaingo: Ollama and
// any OpenAI-compatible server (llama.cpp's llama-server, vLLM, LM Studio).
// A model is named by a spec string:
//
//	ollama:qwen2.5:3b                      Ollama on 127.0.0.1:11434
//	ollama:qwen2.5:3b@http://gpu-box:11434 Ollama elsewhere
//	openai:http://localhost:8080/v1#qwen   OpenAI-compatible server, model "qwen"
//
// Two roles keep the dual-model design: a small fast model for the
// decisions (planning, grading, rewriting, judging) and a larger one for
// writing answers; either may be the same model.
//
// Small local models (1-8B parameters) are the design target. Decisions are
// Go structs whose JSON Schema constrains decoding (Ollama's format object,
// OpenAI's response_format json_schema, JSON mode where a server has
// nothing better), and a tolerant parser reads what the model actually
// wrote: fenced JSON, trailing prose, single quotes, tool-call wrappers and
// bare function calls. When everything fails, the call returns an error
// matching ErrBadOutput and the caller's deterministic fallback decides.
//
// Every call has a timeout, retries connection errors and 5xx/429 responses
// with backoff (never other 4xx), honours context cancellation mid-stream,
// and returns an *Error whose Kind (ErrUnreachable, ErrTimeout,
// ErrBadOutput, ...) says why it failed. Every result carries the
// graphrag.Usage of the calls it made, failed calls included (on *Error).
//
// A server found unreachable is not asked again for a cooldown
// (Config.UnreachableCooldown, 30 s): a circuit breaker per server, shared by
// all roles, makes the following calls fail at once with ErrUnreachable
// ("skipped: ... was unreachable 3s ago"), so a run whose Ollama is down pays
// the retries once and finishes on the deterministic fallbacks. Timeouts and
// 5xx responses do not open it.
//
// A Captioner shrinks an image (at most 768 px on its longer side, as a
// JPEG) and asks a vision model for one or two sentences describing it and
// any text in it; images whose header declares more than 50 megapixels are
// refused before decoding.
//
// Running a model (suggested commands; the tests use in-process fakes, not
// real models):
//
//	ollama pull qwen2.5:3b && ollama pull qwen2.5:7b && ollama pull nomic-embed-text
//	  router ollama:qwen2.5:3b, writer ollama:qwen2.5:7b, embed ollama:nomic-embed-text
//	llama-server -m Qwen2.5-3B-Instruct-Q4_K_M.gguf --alias qwen2.5-3b --port 8080 -c 8192
//	  router openai:http://localhost:8080/v1#qwen2.5-3b
//	llama-server -m nomic-embed-text-v1.5.Q8_0.gguf --embeddings --port 8081
//	  embed openai:http://localhost:8081/v1#nomic-embed-text
//	ollama pull moondream
//	  vision ollama:moondream (or llava:7b, qwen2.5vl:3b, llama3.2-vision)
//
// The package reads no environment variables and uses no package-level
// HTTP client: the caller passes an *http.Client to New.
package llm
