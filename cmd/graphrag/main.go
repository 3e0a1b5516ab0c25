// Command graphrag answers questions from your own files with local models.
//
// It ingests files into an embedded store (or PostgreSQL with pgvector) and
// runs each question through a graph of five nodes — route, retrieve,
// evaluate, generate, validate — that loops back when retrieval is poor or an
// answer is unsupported. Without a language model it answers extractively,
// with citations; with Ollama or an OpenAI-compatible server it gets better.
//
// Run `graphrag help` for the commands.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	ctx, sigint, stopInterrupts := withInterrupts(ctx)
	code := Run(ctx, os.Args[1:], stdio{in: os.Stdin, out: os.Stdout, err: os.Stderr, env: os.Environ(), interrupts: sigint}, os.Getenv)
	stopInterrupts()
	stop()
	os.Exit(code)
}
