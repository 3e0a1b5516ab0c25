package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/nodes"
)

// With --confirm-web, run and chat ask before a question leaves the
// machine for the web search provider: the web searcher is wrapped so that
// the retrieve node's call waits for the user's answer, and a "no" sends
// nothing.

// errWebDeclined: the user declined to send a question to the web.
var errWebDeclined = errors.New("web search declined: nothing was sent (answer y to allow it, or leave out --confirm-web)")

// webAsker asks the user whether query may be sent to the web.
type webAsker func(ctx context.Context, query string) (bool, error)

// confirmingWeb is a web searcher that asks first.
type confirmingWeb struct {
	next nodes.WebSearcher
	ask  webAsker
}

var _ nodes.WebSearcher = confirmingWeb{}

func (c confirmingWeb) SearchWeb(ctx context.Context, query string, k int) ([]graphrag.Hit, error) {
	ok, err := c.ask(ctx, query)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, errWebDeclined
	}
	return c.next.SearchWeb(ctx, query, k)
}

// askWeb returns the asker --confirm-web uses: the question on stderr, the
// answer the next line read by readLine; anything but y/yes is a no.
func (a *app) askWeb(readLine func() (string, error)) webAsker {
	return func(ctx context.Context, query string) (bool, error) {
		if err := ctx.Err(); err != nil {
			return false, err
		}
		fmt.Fprintf(a.io.err, "Send %q to the web search (%s)? [y/N] ", query, webHost(a.web))
		line, err := readLine()
		if err != nil && !errors.Is(err, io.EOF) {
			return false, nil // Ctrl-C at the question: no
		}
		switch strings.ToLower(strings.TrimSpace(line)) {
		case "y", "yes":
			return true, nil
		}
		return false, nil
	}
}

// webHost names the provider for the question: "searxng=URL" → URL.
func webHost(spec string) string {
	if _, u, ok := strings.Cut(spec, "="); ok {
		return u
	}
	return spec
}

// stdinLines reads the answers of run's questions from in.
func stdinLines(in io.Reader) func() (string, error) {
	r := bufio.NewReader(in)
	return func() (string, error) { return r.ReadString('\n') }
}
