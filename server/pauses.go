package server

import (
	"context"
	"crypto/rand"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/graphrag/graphrag/graph"
	"github.com/graphrag/graphrag/nodes"
)

// A query whose run pauses (an engine interrupt: with nodes.Options.ConfirmWeb,
// before its question goes to the web) is answered with an Interrupt and a
// token; a later request resumes it (QueryRequest.Resume). Between the
// two, the run's checkpoint waits in Config.Checkpoints under a thread of
// its own, for at most Config.PauseTTL, and at most Config.MaxPaused
// queries wait at once: the oldest is dropped to make room. Every run's
// thread is deleted when the run ends, is dropped or expires, so nothing
// accumulates.

// Defaults of the pause settings.
const (
	// defaultPauseTTL is long enough for a person to read the question and
	// answer it, and bounds how long a forgotten one holds memory.
	defaultPauseTTL = 10 * time.Minute
	// defaultMaxPaused bounds the paused queries kept: each holds one
	// checkpoint, the state with its hits (tens of kilobytes), so at most a
	// few megabytes.
	defaultMaxPaused = 100
)

// Interrupt is a paused query: what it asks, and the token that resumes it.
type Interrupt struct {
	// Token resumes the query: {"resume": {"token": "...", "allow": true}}.
	Token string `json:"token"`
	// Kind says what the run asks: "confirm_web", may the question be sent
	// to the web search?
	Kind string `json:"kind"`
	// Message is the question to show the user.
	Message string `json:"message"`
	// Query and Provider are, for "confirm_web", the text that would be
	// sent and where to.
	Query    string `json:"query,omitempty"`
	Provider string `json:"provider,omitempty"`
	// ExpiresAt is when the server forgets the query (RFC 3339).
	ExpiresAt string `json:"expires_at"`
}

// Kinds of Interrupt.
const interruptConfirmWeb = "confirm_web"

// ResumeRequest answers a paused query.
type ResumeRequest struct {
	// Token is Interrupt.Token.
	Token string `json:"token"`
	// Allow is the answer: true sends the question to the web, false
	// answers from the local files only. Required.
	Allow *bool `json:"allow"`
}

// paused is a query waiting for its answer.
type paused struct {
	thread  string // the run's thread in Config.Checkpoints
	token   string // the engine's resume token
	conv    string // the conversation the turn goes to (QueryRequest.Thread)
	query   string
	expires time.Time
}

// pauses holds the paused queries.
type pauses struct {
	cp  graph.CheckpointStore
	ttl time.Duration
	max int
	now func() time.Time

	mu     sync.Mutex
	byTok  map[string]*paused
	order  []string // tokens, oldest first
	logger func(msg string, args ...any)
}

func newPauses(cfg Config) *pauses {
	return &pauses{
		cp: cfg.Checkpoints, ttl: cfg.PauseTTL, max: cfg.MaxPaused, now: time.Now,
		byTok: make(map[string]*paused), logger: cfg.Logger.Warn,
	}
}

// thread returns a new thread name for one run.
func (p *pauses) thread() string { return "serve/" + rand.Text() }

// forget deletes a run's checkpoints.
func (p *pauses) forget(thread string) {
	if err := p.cp.Delete(context.Background(), thread); err != nil {
		p.logger("delete a finished run's checkpoints", "thread", thread, "error", err)
	}
}

// add keeps a paused run and returns the token that resumes it, with its
// expiry.
func (p *pauses) add(q paused) (string, time.Time) {
	tok := rand.Text()
	p.mu.Lock()
	drop := p.expireLocked()
	for len(p.order) >= p.max {
		drop = append(drop, p.removeLocked(p.order[0]))
	}
	q.expires = p.now().Add(p.ttl)
	p.byTok[tok] = &q
	p.order = append(p.order, tok)
	p.mu.Unlock()
	for _, d := range drop {
		p.forget(d.thread)
	}
	return tok, q.expires
}

// take removes the paused run tok names and returns it: a token answers
// once.
func (p *pauses) take(tok string) (paused, error) {
	p.mu.Lock()
	drop := p.expireLocked()
	q, ok := p.byTok[tok]
	if ok {
		p.removeLocked(tok)
	}
	p.mu.Unlock()
	for _, d := range drop {
		p.forget(d.thread)
	}
	if !ok {
		return paused{}, newError(http.StatusNotFound, "unknown_interrupt", fmt.Sprintf(
			"no paused query has this token: it was answered already, expired (paused queries wait %s), was dropped for newer ones, or the server restarted; ask the question again", p.ttl))
	}
	return *q, nil
}

// count returns how many queries are paused.
func (p *pauses) count() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.order)
}

// expireLocked removes the paused runs past their expiry and returns them.
func (p *pauses) expireLocked() []*paused {
	var out []*paused
	now := p.now()
	for len(p.order) > 0 && !now.Before(p.byTok[p.order[0]].expires) {
		out = append(out, p.removeLocked(p.order[0]))
	}
	return out
}

func (p *pauses) removeLocked(tok string) *paused {
	q := p.byTok[tok]
	delete(p.byTok, tok)
	for i, t := range p.order {
		if t == tok {
			p.order = append(p.order[:i], p.order[i+1:]...)
			break
		}
	}
	return q
}

// interruptOf describes a paused run to the client.
func interruptOf(in *graph.Interrupted, tok string, expires time.Time) *Interrupt {
	out := &Interrupt{Token: tok, Kind: "interrupt", ExpiresAt: expires.UTC().Format(time.RFC3339)}
	if c, ok := in.Payload.(nodes.WebConfirmation); ok {
		out.Kind, out.Query, out.Provider = interruptConfirmWeb, c.Query, c.Provider
		out.Message = fmt.Sprintf("Send %q to the web search (%s)? Answer with allow true to send it, false to answer from your files only.", c.Query, c.Provider)
	} else {
		out.Message = fmt.Sprintf("The run paused %s node %s and waits for an answer.", in.When, in.Node)
	}
	return out
}
