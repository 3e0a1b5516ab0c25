package pgvector

import (
	"context"
	"errors"
	"io"
	"net"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/internal/pgtest"
)

// tcpProxy forwards connections to target; cut closes the listener and
// every connection, as a database that goes down does.
type tcpProxy struct {
	ln    net.Listener
	mu    sync.Mutex
	conns []net.Conn
}

func newTCPProxy(t *testing.T, target string) *tcpProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &tcpProxy{ln: ln}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			up, err := net.Dial("tcp", target)
			if err != nil {
				c.Close()
				continue
			}
			p.mu.Lock()
			p.conns = append(p.conns, c, up)
			p.mu.Unlock()
			go func() { _, _ = io.Copy(up, c); up.Close() }()
			go func() { _, _ = io.Copy(c, up); c.Close() }()
		}
	}()
	t.Cleanup(p.cut)
	return p
}

func (p *tcpProxy) cut() {
	p.ln.Close()
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
}

// A database that goes away mid-service is reported as
// graphrag.ErrUnavailable (a server's 503), not as a generic failure.
func TestOutageIsUnavailable(t *testing.T) {
	dbURL := pgtest.URL(t)
	schema := pgtest.NewSchema(t, dbURL)
	migrateSchema(t, dbURL, schema)
	u, err := url.Parse(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	p := newTCPProxy(t, u.Host)
	u.Host = p.ln.Addr().String()
	ctx := context.Background()
	st, err := Open(ctx, u.String(), Options{Schema: schema})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := st.Put(ctx, graphrag.Record{Doc: graphrag.Document{ID: "d", Path: "/d.txt", Hash: "h"}, Chunks: []graphrag.Chunk{{Text: "guillemot colony"}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Search(ctx, graphrag.Query{Text: "guillemot", Mode: graphrag.ModeKeyword}); err != nil {
		t.Fatal(err)
	}

	p.cut()
	_, err = st.Search(ctx, graphrag.Query{Text: "guillemot", Mode: graphrag.ModeKeyword})
	if !errors.Is(err, graphrag.ErrUnavailable) {
		t.Errorf("Search with the database gone: %v, want graphrag.ErrUnavailable", err)
	}
	if _, err := st.Stats(ctx); !errors.Is(err, graphrag.ErrUnavailable) {
		t.Errorf("Stats with the database gone: %v, want graphrag.ErrUnavailable", err)
	}
	if _, err := Open(ctx, u.String(), Options{Schema: schema}); !errors.Is(err, graphrag.ErrUnavailable) {
		t.Errorf("Open with the database gone: %v, want graphrag.ErrUnavailable", err)
	}
	// A cancelled query is the caller's doing, not an outage.
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := st.Search(cctx, graphrag.Query{Text: "guillemot", Mode: graphrag.ModeKeyword}); errors.Is(err, graphrag.ErrUnavailable) || !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled Search: %v, want context.Canceled only", err)
	}
}

// A server that accepts the connection and never answers (a stuck or
// firewalled host) fails the connect after ConnectTimeout instead of
// holding it for the kernel's two minutes.
func TestConnectTimeout(t *testing.T) {
	if got, _ := (Options{}).withDefaults(); got.ConnectTimeout != DefaultConnectTimeout {
		t.Errorf("default ConnectTimeout %v, want %v", got.ConnectTimeout, DefaultConnectTimeout)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var held []net.Conn
	var mu sync.Mutex
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			held = append(held, c) // never answered
			mu.Unlock()
		}
	}()
	defer func() {
		mu.Lock()
		for _, c := range held {
			c.Close()
		}
		mu.Unlock()
	}()
	// The outer deadline only keeps a broken build from hanging the suite.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, err = Connect(ctx, "postgres://nobody@"+ln.Addr().String()+"/none?sslmode=disable", Options{ConnectTimeout: 100 * time.Millisecond})
	if ctx.Err() != nil {
		t.Fatal("Connect waited for the outer deadline: no connect timeout applied")
	}
	if !errors.Is(err, graphrag.ErrUnavailable) || !strings.Contains(err.Error(), "connect to nobody@") {
		t.Fatalf("Connect = %v, want graphrag.ErrUnavailable naming the server", err)
	}
}
