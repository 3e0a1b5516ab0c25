package main

import (
	"net"
	"strings"
	"sync"
	"testing"
	"time"
)

// A PostgreSQL address that accepts connections and never answers (a
// stuck or firewalled server) fails after the connect timeout, with a hint,
// instead of holding the command for minutes.
func TestUnreachablePostgresFailsFastWithAHint(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var mu sync.Mutex
	var held []net.Conn
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			held = append(held, c)
			mu.Unlock()
		}
	}()
	defer func() {
		mu.Lock()
		defer mu.Unlock()
		for _, c := range held {
			c.Close()
		}
	}()

	c := newCLI(t)
	c.env["GRAPHRAG_STORE"] = "postgres://nobody@" + ln.Addr().String() + "/none?sslmode=disable"
	type result struct {
		errs string
		code int
	}
	done := make(chan result, 1)
	go func() {
		_, errs, code := c.run("", "run", "anything")
		done <- result{errs, code}
	}()
	select {
	case r := <-done:
		if r.code == 0 || !strings.Contains(r.errs, "is PostgreSQL running") {
			t.Fatalf("exit %d, stderr %q: want a failure with a hint", r.code, r.errs)
		}
	case <-time.After(time.Minute):
		t.Fatal("graphrag run still waits for the silent server after a minute")
	}
}
