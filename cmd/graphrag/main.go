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
	ctx, sigint, stop := notifyInterrupt(context.Background())
	code := Run(ctx, os.Args[1:], stdio{in: os.Stdin, out: os.Stdout, err: os.Stderr, env: os.Environ(), interrupts: sigint}, os.Getenv)
	stop()
	os.Exit(code)
}

// notifyInterrupt returns a context cancelled by the first SIGTERM, or by
// the first Ctrl-C (SIGINT) that no command has taken over (chat takes it
// over to stop one answer). Once cancelled it lets go of the signal, so a
// second Ctrl-C ends the process at once, the system's default, even if
// something does not honour the cancellation.
func notifyInterrupt(parent context.Context) (context.Context, *interrupts, func()) {
	ctx, stopTerm := signal.NotifyContext(parent, syscall.SIGTERM)
	go func() {
		<-ctx.Done()
		stopTerm()
	}()
	ctx, in, stopInt := withInterrupts(ctx)
	return ctx, in, func() { stopInt(); stopTerm() }
}
