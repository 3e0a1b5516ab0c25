package main

import (
	"context"
	"os"
	"os/signal"
	"sync"
)

// interrupts routes Ctrl-C (SIGINT). By default it cancels the whole run,
// as for every command; chat takes it over while an answer runs, so Ctrl-C
// stops that answer and returns to the prompt instead of leaving.
type interrupts struct {
	mu      sync.Mutex
	cancel  context.CancelFunc // the run's
	handler func()             // set while a command has taken Ctrl-C over
	release func()             // lets go of SIGINT: the next Ctrl-C ends the process
}

// withInterrupts returns a context that Ctrl-C cancels unless a command has
// taken it over, and the interrupts to take it over with.
func withInterrupts(parent context.Context) (context.Context, *interrupts, func()) {
	ctx, cancel := context.WithCancel(parent)
	ch := make(chan os.Signal, 1)
	in := &interrupts{cancel: cancel, release: func() { signal.Stop(ch) }}
	signal.Notify(ch, os.Interrupt)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-ch:
				in.fire()
			case <-done:
				return
			}
		}
	}()
	return ctx, in, func() {
		signal.Stop(ch)
		close(done)
		cancel()
	}
}

// fire delivers one interrupt.
func (in *interrupts) fire() {
	in.mu.Lock()
	h := in.handler
	in.mu.Unlock()
	if h != nil {
		h()
		return
	}
	in.cancel()
	if in.release != nil {
		in.release()
	}
}

// takeOver sends interrupts to h until restore is called. A nil
// *interrupts (tests, embedding) takes nothing over.
func (in *interrupts) takeOver(h func()) (restore func()) {
	if in == nil {
		return func() {}
	}
	in.mu.Lock()
	in.handler = h
	in.mu.Unlock()
	return func() {
		in.mu.Lock()
		in.handler = nil
		in.mu.Unlock()
	}
}
