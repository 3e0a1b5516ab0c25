package main

import (
	"bufio"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/graphrag/graphrag/graph"
	"github.com/graphrag/graphrag/nodes"
)

// With --confirm-web, the RAG graph pauses before a question leaves the
// machine for the web search provider (nodes.Options.ConfirmWeb: an engine
// interrupt). run and chat ask on the terminal and resume the run with the
// answer: yes sends the question, anything else answers from the local
// files only. serve hands the question to its client instead (see package
// server).

// webAsker asks the user whether c.Query may be sent to c.Provider.
type webAsker func(ctx context.Context, c nodes.WebConfirmation) (bool, error)

// askWeb returns the asker run and chat use: the question on stderr, the
// answer the next line read by readLine; anything but y/yes is a no, and
// so is the end of the input (a script without an answer sends nothing).
func (a *app) askWeb(readLine func() (string, error)) webAsker {
	return func(ctx context.Context, c nodes.WebConfirmation) (bool, error) {
		if err := ctx.Err(); err != nil {
			return false, err
		}
		fmt.Fprintf(a.io.err, "Send %q to the web search (%s)? [y/N] ", c.Query, c.Provider)
		line, err := readLine()
		switch {
		case errors.Is(err, io.EOF) && strings.TrimSpace(line) == "":
			fmt.Fprintf(a.io.err, "\nno answer (end of input): nothing was sent to the web; answering from your files only (answer y to allow it, or leave out --confirm-web)\n")
			return false, nil
		case err != nil && !errors.Is(err, io.EOF):
			return false, nil // Ctrl-C at the question: no
		}
		switch strings.ToLower(strings.TrimSpace(line)) {
		case "y", "yes":
			return true, nil
		}
		fmt.Fprintf(a.io.err, "web search declined: nothing was sent; answering from your files only\n")
		return false, nil
	}
}

// stdinLines reads the answers of run's questions from in.
func stdinLines(in io.Reader) func() (string, error) {
	r := bufio.NewReader(in)
	return func() (string, error) { return r.ReadString('\n') }
}

// invoke runs one question. When the graph can pause (--confirm-web), the
// run has a thread of its own in the pipeline's in-memory checkpointer;
// each time it pauses before the web search, ask says whether to send the
// question, and the run resumes with the answer. The thread is deleted
// when the question is answered.
func (p *pipeline) invoke(ctx context.Context, in nodes.State, opts ...graph.RunOption) (nodes.State, error) {
	if p.pauses == nil {
		return p.graph.Invoke(ctx, in, opts...)
	}
	thread := "confirm-web/" + rand.Text()
	defer p.pauses.Delete(context.WithoutCancel(ctx), thread)
	final, err := p.graph.Invoke(ctx, in, append(opts, graph.WithThread(thread))...)
	for {
		var pause *graph.Interrupted
		if !errors.As(err, &pause) {
			return final, err
		}
		c, ok := pause.Payload.(nodes.WebConfirmation)
		if !ok {
			return final, fmt.Errorf("the run paused at %s with %T, which this command cannot answer: %w", pause.Node, pause.Payload, err)
		}
		allow := false
		if p.ask != nil {
			if allow, err = p.ask(ctx, c); err != nil {
				return final, err
			}
		}
		final, err = p.graph.Invoke(ctx, nodes.State{}, append(opts, graph.Resume(pause.Token, allow))...)
	}
}
