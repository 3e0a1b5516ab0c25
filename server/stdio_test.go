package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"
)

// wireMsg is a protocol line as a client decodes it.
type wireMsg struct {
	ID        json.RawMessage `json:"id"`
	Request   json.RawMessage `json:"request"`
	Event     *Event          `json:"event"`
	Result    json.RawMessage `json:"result"`
	Interrupt *Interrupt      `json:"interrupt"`
	Error     *ErrorBody      `json:"error"`
}

// stdioClient drives ServeStdio through pipes, as a desktop app would.
type stdioClient struct {
	t    *testing.T
	in   *io.PipeWriter
	msgs chan wireMsg
	done chan error // ServeStdio's result
	logs *syncBuffer
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

func startStdio(t *testing.T, ctx context.Context, f *fakeRAG, cfg Config) *stdioClient {
	t.Helper()
	if cfg.Runner == nil {
		cfg.Runner = f.graph(t)
	}
	logs := &syncBuffer{}
	cfg.Logger = slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := &stdioClient{t: t, in: inW, msgs: make(chan wireMsg, 10000), done: make(chan error, 1), logs: logs}
	go func() {
		err := ServeStdio(ctx, inR, outW, cfg)
		outW.Close()
		c.done <- err
	}()
	go func() {
		defer close(c.msgs)
		sc := bufio.NewScanner(outR)
		sc.Buffer(make([]byte, 64<<10), 4<<20)
		for sc.Scan() {
			var m wireMsg
			dec := json.NewDecoder(bytes.NewReader(sc.Bytes()))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&m); err != nil || m.ID == nil {
				t.Errorf("stdout line is not a protocol message (%v): %q", err, sc.Bytes())
				continue
			}
			c.msgs <- m
		}
	}()
	t.Cleanup(func() { inW.Close() })
	return c
}

func (c *stdioClient) send(line string) {
	c.t.Helper()
	if _, err := io.WriteString(c.in, line+"\n"); err != nil {
		c.t.Fatal(err)
	}
}

// next returns the next message, failing after a while.
func (c *stdioClient) next() wireMsg {
	c.t.Helper()
	select {
	case m, ok := <-c.msgs:
		if !ok {
			c.t.Fatal("stdout closed")
		}
		return m
	case <-time.After(10 * time.Second):
		c.t.Fatal("no message in 10s")
	}
	return wireMsg{}
}

// until reads messages until the final one (non-null id) for id, and
// returns it with the events seen for id.
func (c *stdioClient) until(id string) (final wireMsg, events []Event) {
	c.t.Helper()
	for {
		m := c.next()
		if string(m.ID) == "null" && string(m.Request) == id {
			events = append(events, *m.Event)
			continue
		}
		if string(m.ID) == id {
			return m, events
		}
	}
}

func (c *stdioClient) close() error {
	c.t.Helper()
	c.in.Close()
	select {
	case err := <-c.done:
		return err
	case <-time.After(10 * time.Second):
		c.t.Fatal("ServeStdio did not return after EOF")
		return nil
	}
}

func TestStdioMethods(t *testing.T) {
	f := newFake()
	c := startStdio(t, context.Background(), f, Config{})
	tests := []struct {
		name, line, id string
		result, code   string // result substring, or error code
	}{
		{"ping", `{"id": 1, "method": "ping"}`, `1`, `"pong"`, ""},
		{"string id", `{"id": "abc", "method": "ping"}`, `"abc"`, `"pong"`, ""},
		{"graph", `{"id": 2, "method": "graph"}`, `2`, `flowchart`, ""},
		{"graph as dot", `{"id": 3, "method": "graph", "params": {"format": "dot"}}`, `3`, `digraph`, ""},
		{"bad graph format", `{"id": 4, "method": "graph", "params": {"format": "svg"}}`, `4`, "", "bad_request"},
		{"unknown method", `{"id": 5, "method": "explode"}`, `5`, "", "unknown_method"},
		{"no method", `{"id": 6}`, `6`, "", "bad_request"},
		{"empty query", `{"id": 7, "method": "query", "params": {"query": ""}}`, `7`, "", "missing_query"},
		{"unknown param", `{"id": 8, "method": "query", "params": {"q": "x"}}`, `8`, "", "bad_request"},
		{"bad stream", `{"id": 13, "method": "query", "params": {"query": "q", "stream": "xml"}}`, `13`, "", "bad_request"},
		{"ingest not configured", `{"id": 9, "method": "ingest", "params": {}}`, `9`, "", "not_configured"},
		{"cancel of nothing", `{"id": 10, "method": "cancel", "params": {"id": 99}}`, `10`, `{"canceled":false}`, ""},
		{"malformed line", `{"id": 11, "method": `, `null`, "", "bad_json"},
		{"not an object", `[1, 2]`, `null`, "", "bad_json"},
		{"missing id", `{"method": "ping"}`, `null`, "", "bad_request"},
		{"null id", `{"id": null, "method": "ping"}`, `null`, "", "bad_request"},
		{"object id", `{"id": {"a": 1}, "method": "ping"}`, `null`, "", "bad_request"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c.t = t
			c.send(tt.line)
			m := c.next()
			if string(m.ID) != tt.id {
				t.Fatalf("id %s, want %s", m.ID, tt.id)
			}
			if tt.code != "" {
				if m.Error == nil || m.Error.Code != tt.code || m.Error.Message == "" {
					t.Fatalf("error %+v, want code %q", m.Error, tt.code)
				}
				return
			}
			if m.Error != nil || !strings.Contains(string(m.Result), tt.result) {
				t.Fatalf("result %s error %+v, want %s", m.Result, m.Error, tt.result)
			}
		})
	}
	c.t = t
	c.send("   ") // blank lines are skipped
	c.send(`{"id": 12, "method": "ping"}`)
	if m := c.next(); string(m.ID) != "12" {
		t.Fatalf("after a blank line: %+v", m)
	}
	if err := c.close(); err != nil {
		t.Fatalf("ServeStdio after EOF: %v", err)
	}
}

func TestStdioQuery(t *testing.T) {
	f := newFake()
	c := startStdio(t, context.Background(), f, Config{})
	c.send(`{"id": 1, "method": "query", "params": {"query": "when are invoices due?"}}`)
	final, evs := c.until("1")
	if final.Error != nil {
		t.Fatalf("error %+v", final.Error)
	}
	var r QueryResponse
	if err := json.Unmarshal(final.Result, &r); err != nil || r.Answer != "tok0 tok1 tok2 [1]" || len(r.Citations) != 1 {
		t.Fatalf("result %s (%v)", final.Result, err)
	}
	want := "run_start node_start node_end node_start node_end node_start token token token node_end decision run_end"
	if got := strings.Join(types(evs), " "); got != want {
		t.Fatalf("events\n got %s\nwant %s", got, want)
	}

	t.Run("without events", func(t *testing.T) {
		c.t = t
		c.send(`{"id": 2, "method": "query", "params": {"query": "q", "stream": "json"}}`)
		m := c.next()
		if string(m.ID) != "2" || m.Result == nil {
			t.Fatalf("first message %+v, want the result", m)
		}
	})
	c.t = t
	if err := c.close(); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(c.logs.String(), "tok0") {
		t.Error("the answer went to the log")
	}
}

// TestStdioConcurrentLinesNeverInterleave runs many streaming queries at
// once: every stdout line must decode as one message (the client's decoder
// fails otherwise), and each request's events must arrive complete and in
// order, labelled with their request.
func TestStdioConcurrentLinesNeverInterleave(t *testing.T) {
	f := newFake()
	f.tokens, f.tokenDelay = 60, 100*time.Microsecond
	const n = 16
	c := startStdio(t, context.Background(), f, Config{MaxConcurrent: n})
	for i := range n {
		c.send(fmt.Sprintf(`{"id": "q%d", "method": "query", "params": {"query": "question %d"}}`, i, i))
	}
	tokens := map[string][]string{}
	finals := map[string]int{}
	for len(finals) < n {
		m := c.next()
		switch {
		case string(m.ID) == "null":
			if m.Event == nil || m.Request == nil {
				t.Fatalf("event line without event or request: %+v", m)
			}
			if m.Event.Type == "token" {
				tokens[string(m.Request)] = append(tokens[string(m.Request)], m.Event.Text)
			}
		case m.Error != nil:
			t.Fatalf("request %s failed: %+v", m.ID, m.Error)
		default:
			finals[string(m.ID)]++
		}
	}
	for i := range n {
		id := fmt.Sprintf(`"q%d"`, i)
		if finals[id] != 1 {
			t.Errorf("%s: %d final messages", id, finals[id])
		}
		toks := tokens[id]
		if len(toks) != f.tokens {
			t.Fatalf("%s: %d tokens, want %d", id, len(toks), f.tokens)
		}
		for j, tok := range toks {
			if tok != fmt.Sprintf("tok%d ", j) {
				t.Fatalf("%s: token %d is %q", id, j, tok)
			}
		}
	}
	if err := c.close(); err != nil {
		t.Fatal(err)
	}
}

func TestStdioLimitsAndCancel(t *testing.T) {
	f := newFake()
	f.block = true
	c := startStdio(t, context.Background(), f, Config{MaxConcurrent: 1, QueueLength: -1})
	c.send(`{"id": 1, "method": "query", "params": {"query": "slow"}}`)
	<-f.started

	c.send(`{"id": 1, "method": "query", "params": {"query": "again"}}`)
	c.send(`{"id": 2, "method": "query", "params": {"query": "another"}}`)
	c.send(`{"id": 3, "method": "ping"}`) // answered while the query runs
	got := map[string]string{}
	for len(got) < 3 {
		m := c.next()
		if string(m.ID) == "null" {
			continue
		}
		code := "ok"
		if m.Error != nil {
			code = m.Error.Code
		}
		got[string(m.ID)] = code
	}
	// Request 1 is both running and refused as a duplicate: the refusal is
	// the only answer so far.
	want := map[string]string{"1": "duplicate_id", "2": "too_many_requests", "3": "ok"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("answers %v, want %v", got, want)
	}

	c.send(`{"id": 4, "method": "cancel", "params": {"id": 1}}`)
	answers := map[string]wireMsg{}
	for len(answers) < 2 {
		if m := c.next(); string(m.ID) != "null" {
			answers[string(m.ID)] = m
		}
	}
	if m := answers["4"]; string(m.Result) != `{"canceled":true}` {
		t.Errorf("cancel answered %s %+v", m.Result, m.Error)
	}
	if m := answers["1"]; m.Error == nil || m.Error.Code != "canceled" {
		t.Errorf("cancelled query answered %s %+v", m.Result, m.Error)
	}
	<-f.cancelled
	if err := c.close(); err != nil {
		t.Fatal(err)
	}
}

func TestStdioDuplicateID(t *testing.T) {
	f := newFake()
	f.block = true
	c := startStdio(t, context.Background(), f, Config{MaxConcurrent: 4})
	c.send(`{"id": 1, "method": "query", "params": {"query": "slow"}}`)
	<-f.started
	c.send(`{"id": 1, "method": "query", "params": {"query": "same id"}}`)
	for {
		m := c.next()
		if string(m.ID) == "1" {
			if m.Error == nil || m.Error.Code != "duplicate_id" {
				t.Fatalf("second request 1 answered %+v", m)
			}
			break
		}
	}
	c.send(`{"id": 2, "method": "cancel", "params": {"id": 1}}`)
	<-f.cancelled
	if err := c.close(); err != nil {
		t.Fatal(err)
	}
}

func TestStdioEOFFinishesInFlight(t *testing.T) {
	f := newFake()
	f.tokens, f.tokenDelay = 5, 30*time.Millisecond
	c := startStdio(t, context.Background(), f, Config{})
	c.send(`{"id": 1, "method": "query", "params": {"query": "q"}}`)
	c.in.Close() // EOF right away
	var final *wireMsg
	for m := range c.msgs {
		if string(m.ID) == "1" {
			final = &m
		}
	}
	if final == nil || final.Error != nil || !strings.Contains(string(final.Result), "tok4") {
		t.Fatalf("the in-flight query did not finish before ServeStdio returned: %+v", final)
	}
	if err := <-c.done; err != nil {
		t.Fatal(err)
	}
}

func TestStdioContextCancel(t *testing.T) {
	f := newFake()
	f.block = true
	ctx, cancel := context.WithCancel(context.Background())
	c := startStdio(t, ctx, f, Config{})
	c.send(`{"id": 1, "method": "query", "params": {"query": "q"}}`)
	<-f.started
	cancel()
	select {
	case err := <-c.done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("ServeStdio returned %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("ServeStdio did not return after ctx was cancelled")
	}
	<-f.cancelled
}

func TestStdioLineTooLong(t *testing.T) {
	c := startStdio(t, context.Background(), newFake(), Config{MaxBodyBytes: 100})
	c.send(`{"id": 1, "method": "query", "params": {"query": "` + strings.Repeat("x", 200<<10) + `"}}`)
	m := c.next()
	if string(m.ID) != "null" || m.Error == nil || m.Error.Code != "line_too_long" {
		t.Fatalf("answered %+v", m)
	}
	c.send(`{"id": 2, "method": "ping"}`)
	if m := c.next(); string(m.ID) != "2" {
		t.Fatalf("after a long line: %+v", m)
	}
	if err := c.close(); err != nil {
		t.Fatal(err)
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("broken pipe") }

func TestStdioWriteFailure(t *testing.T) {
	f := newFake()
	in := strings.NewReader(`{"id": 1, "method": "ping"}` + "\n")
	inR, inW := io.Pipe()
	go func() { io.Copy(inW, in) }() // never EOF: only the write error ends the loop
	defer inW.Close()
	err := ServeStdio(context.Background(), inR, failingWriter{}, Config{Runner: f.graph(t)})
	if err == nil || !strings.Contains(err.Error(), "broken pipe") {
		t.Fatalf("ServeStdio returned %v, want the write error", err)
	}
}

func TestReadLines(t *testing.T) {
	long := strings.Repeat("y", 100)
	tests := []struct {
		name, in string
		want     []string // "!" marks a too-long line
	}{
		{"lines", "a\nb\n", []string{"a", "b"}},
		{"no final newline", "a\nb", []string{"a", "b"}},
		{"crlf", "a\r\nb\r\n", []string{"a", "b"}},
		{"blank lines", "\n\n a \n", []string{"a"}},
		{"long line skipped", "a\n" + long + "\nb\n", []string{"a", "!", "b"}},
		{"long last line", "a\n" + long, []string{"a", "!"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ch := make(chan line)
			go readLines(strings.NewReader(tt.in), 10, ch, make(chan struct{}))
			var got []string
			for l := range ch {
				if l.err != nil {
					if l.err != io.EOF {
						t.Fatal(l.err)
					}
					break
				}
				switch {
				case l.tooLong:
					got = append(got, "!")
				case len(l.data) > 0:
					got = append(got, string(l.data))
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Fatalf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// FuzzStdioLine feeds arbitrary input to the stdio loop: it must never
// panic, must return at EOF, and must write only whole protocol lines,
// with one answer for each line that is not blank.
//
//	go test ./server -run '^$' -fuzz FuzzStdioLine -fuzztime 30s
func FuzzStdioLine(f *testing.F) {
	for _, seed := range []string{
		`{"id": 1, "method": "ping"}`,
		`{"id": "x", "method": "query", "params": {"query": "q", "stream": "json"}}`,
		`{"id": 2, "method": "cancel", "params": {"id": 2}}`,
		`{"id": 3, "method": "graph", "params": {"format": "dot"}}`,
		`{"id": 4, "method": "ingest", "params": {"paths": ["/etc"]}}`,
		`{"id": [], "method": "ping"}`,
		`{"id": 1e999, "method": "ping"}`,
		"\x00\xff",
		`{"id": 5, "method": "query", "params": null}`,
	} {
		f.Add(seed)
	}
	rag := newFake().graph(f)
	f.Fuzz(func(t *testing.T, in string) {
		if strings.ContainsAny(in, "\r\n") {
			t.Skip("one line at a time")
		}
		var out bytes.Buffer
		err := ServeStdio(context.Background(), strings.NewReader(in+"\n"), &out, Config{Runner: rag, MaxBodyBytes: 4096})
		if err != nil {
			t.Fatalf("ServeStdio: %v", err)
		}
		lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
		if strings.TrimSpace(in) == "" {
			if out.Len() != 0 {
				t.Fatalf("answered a blank line: %q", out.String())
			}
			return
		}
		finals := 0
		for _, ln := range lines {
			var m wireMsg
			dec := json.NewDecoder(strings.NewReader(ln))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&m); err != nil || m.ID == nil {
				t.Fatalf("not a protocol line (%v): %q", err, ln)
			}
			if string(m.ID) != "null" || m.Error != nil {
				finals++
			}
		}
		if finals != 1 {
			t.Fatalf("%d answers to one line: %q", finals, out.String())
		}
	})
}
