package server

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/nodes"
)

// chromium finds a Chromium to drive, or skips the test saying how to get
// one; with GRAPHRAG_REQUIRE_BROWSER=1 (CI) a missing browser fails it.
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("GRAPHRAG_REQUIRE_BROWSER") == "1" {
		t.Fatal("no Chromium found and GRAPHRAG_REQUIRE_BROWSER=1: install it (Debian: apt-get install chromium)")
	}
	t.Skip("no Chromium on PATH: the browser tests need it (Debian: apt-get install chromium)")
	return ""
}

// browser starts a headless Chromium for one test, with the flags that keep
// it off the network: only the test's loopback server is reachable.
func browser(t *testing.T, width, height int) (context.Context, context.CancelFunc) {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium(t)),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-quic", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(width, height),
	)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(actx)
	ctx, cancelTimeout := context.WithTimeout(ctx, 90*time.Second)
	return ctx, func() { cancelTimeout(); cancelCtx(); cancelAlloc() }
}

// steps runs browser steps, failing the test on the first error.
func steps(t *testing.T, ctx context.Context, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, actions...); err != nil {
		t.Fatal(err)
	}
}

// get runs one browser step that returns a value.
func get[T any](t *testing.T, ctx context.Context, a chromedp.Action[T]) T {
	t.Helper()
	v, err := chromedp.Run(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// artifacts is where the browser tests save screenshots:
// $GRAPHRAG_ARTIFACTS when set (CI keeps them), else the test's temp dir.
func artifacts(t *testing.T) string {
	dir := os.Getenv("GRAPHRAG_ARTIFACTS")
	if dir == "" {
		return t.TempDir()
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// uiServer serves the real RAG graph over a small fixture corpus.
func uiServer(t *testing.T, token string) *httptest.Server {
	t.Helper()
	search := corpusSearcher{docs: []graphrag.Hit{
		corpusDoc("/notes/acme-invoices.md", "acme-invoices.md", "Acme Corporation invoices are payable within 30 days of the invoice date. Late payments incur a 2% monthly fee."),
		corpusDoc("/notes/garden.md", "garden.md", "The tomatoes in the garden need watering twice a week during the summer."),
		corpusDoc("/notes/travel.md", "travel.md", "The passport renewal takes six weeks; book the appointment early."),
	}}
	search.docs[0].Chunk.StartLine, search.docs[0].Chunk.EndLine, search.docs[0].Chunk.Heading = 3, 4, "Invoices > Payment terms"
	rag, err := nodes.Build(nodes.Deps{Searcher: search, Writer: tokenWriter{}}, nodes.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(Config{Runner: rag, Token: token, Sources: func(context.Context) (any, error) {
		return map[string]any{"documents": 3, "chunks": 3, "roots": []map[string]any{{
			"path": "/notes", "exists": true, "files": 3, "documents": 3, "chunks": 3,
			"last_ingest": "2026-11-25T01:00:00Z", "skipped": map[string]int{"binary": 2},
		}}}, nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(ts.Close)
	return ts
}

const uiQuestion = "Within how many days are Acme Corporation invoices payable?"

// TestUIInBrowser asks a question on the page in a real Chromium: the
// answer streams in, the citation opens the cited passage with its file,
// lines and heading, and the graph lit exactly the nodes the run's trace
// reports. Screenshots, desktop and narrow, are saved as artifacts.
func TestUIInBrowser(t *testing.T) {
	ts := uiServer(t, "")
	// What the trace says the run visits, from the JSON API.
	resp, err := postQuery(context.Background(), ts.URL, `{"query": "`+uiQuestion+`"}`)
	if err != nil {
		t.Fatal(err)
	}
	var want QueryResponse
	if err := json.NewDecoder(resp.Body).Decode(&want); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	var wantNodes []string
	for _, n := range want.Trace.Nodes {
		// The graph draws the top level; retrieve's branches are written
		// in its box.
		if n.Subgraph == "" && !slices.Contains(wantNodes, n.Node) {
			wantNodes = append(wantNodes, n.Node)
		}
	}
	slices.Sort(wantNodes)
	out := artifacts(t)

	for _, size := range []struct {
		name          string
		width, height int
	}{{"desktop", 1280, 860}, {"narrow", 390, 844}} {
		t.Run(size.name, func(t *testing.T) {
			ctx, cancel := browser(t, size.width, size.height)
			defer cancel()
			steps(t, ctx,
				chromedp.Navigate(ts.URL+"/"),
				chromedp.WaitVisible(`#graph svg .node[data-node="route"]`),
				chromedp.SendKeys(`#q`, uiQuestion),
				chromedp.Click(`#send`),
				chromedp.WaitVisible(`.answer.done`),
			)
			answer := get(t, ctx, chromedp.Text(`.answer.done`))
			steps(t, ctx,
				chromedp.Click(`.answer.done .cite[data-n="1"]`),
				chromedp.WaitVisible(`#passage`),
			)
			where := get(t, ctx, chromedp.Text(`#passage-where`))
			passage := get(t, ctx, chromedp.Text(`#passage-text`))
			sources := get(t, ctx, chromedp.Text(`#sources .source`))
			if !strings.Contains(sources, "/notes") || !strings.Contains(sources, "3 files, 3 chunks") || !strings.Contains(sources, "2 binary") {
				t.Errorf("sources view shows %q, want /notes with its counts and skipped files", sources)
			}
			lit := get(t, ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll("#graph .node")].filter(g => g.dataset.visits !== "0" && !g.dataset.node.startsWith("__")).map(g => g.dataset.node).sort()`))
			shot := get(t, ctx, chromedp.FullScreenshot(100))
			if !strings.Contains(answer, "30 days") {
				t.Errorf("answer on the page %q, want the 30 days", answer)
			}
			if !strings.Contains(where, "/notes/acme-invoices.md:3-4") || !strings.Contains(where, "Payment terms") {
				t.Errorf("citation opened %q, want the file with lines 3-4 and its heading", where)
			}
			if !strings.Contains(passage, "payable within 30 days") {
				t.Errorf("passage panel shows %q", passage)
			}
			if !slices.Equal(lit, wantNodes) {
				t.Errorf("graph lit %v, the trace visited %v", lit, wantNodes)
			}
			if b := get(t, ctx, chromedp.Evaluate[string](`document.querySelector('#graph .node[data-node="retrieve"] .branches').textContent`)); b != "search" {
				t.Errorf("the retrieve box shows branches %q, want the one that ran: search", b)
			}
			p := filepath.Join(out, "ui-"+size.name+".png")
			if err := os.WriteFile(p, shot, 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("screenshot: %s", p)
		})
	}
}

// TestUIConfirmWeb: on a server that asks before the web search, the page
// shows the question with a button for each answer; nothing is sent before
// the click, "Send it" answers from the web, "No" from the files.
func TestUIConfirmWeb(t *testing.T) {
	s, web, _ := confirmServer(t, Config{})
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(ts.Close)
	ctx, cancel := browser(t, 1280, 860)
	defer cancel()
	steps(t, ctx,
		chromedp.Navigate(ts.URL+"/"),
		chromedp.WaitVisible(`#graph svg .node[data-node="route"]`),
		chromedp.SendKeys(`#q`, webAsk),
		chromedp.Click(`#send`),
		chromedp.WaitVisible(`.confirm .allow`),
	)
	asked := get(t, ctx, chromedp.Text(`.confirm p`))
	if !strings.Contains(asked, "http://searx.test") || !strings.Contains(asked, "rover") || web.sent.Load() != 0 {
		t.Fatalf("the page asks %q with %d questions sent", asked, web.sent.Load())
	}
	steps(t, ctx, chromedp.Click(`.confirm .deny`), chromedp.WaitVisible(`.answer.done`))
	if a := get(t, ctx, chromedp.Text(`.answer.done`)); !strings.Contains(a, "Jezero") || web.sent.Load() != 0 {
		t.Errorf("after No: answer %q, %d sent", a, web.sent.Load())
	}
	steps(t, ctx,
		chromedp.SendKeys(`#q`, webAsk),
		chromedp.Click(`#send`),
		chromedp.WaitVisible(`.turn:nth-child(2) .confirm .allow`),
		chromedp.Click(`.turn:nth-child(2) .confirm .allow`),
		chromedp.WaitVisible(`.turn:nth-child(2) .answer.done`),
	)
	if a := get(t, ctx, chromedp.Text(`.turn:nth-child(2) .answer.done`)); !strings.Contains(a, "120 metres") || web.sent.Load() != 1 {
		t.Errorf("after Send it: answer %q, %d sent", a, web.sent.Load())
	}
	if b := get(t, ctx, chromedp.Evaluate[string](`document.querySelector('#graph .node[data-node="retrieve"] .branches').textContent`)); b != "web" {
		t.Errorf("the retrieve box shows branches %q, want web", b)
	}
	shot := get(t, ctx, chromedp.FullScreenshot(100))
	p := filepath.Join(artifacts(t), "ui-confirm-web.png")
	if err := os.WriteFile(p, shot, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", p)
}

// TestUIToken: with a token the page loads without it (it holds no data),
// the API refuses it until the user signs in, and then answers.
func TestUIToken(t *testing.T) {
	ts := uiServer(t, "s3cret")
	ctx, cancel := browser(t, 1000, 800)
	defer cancel()
	steps(t, ctx,
		chromedp.Navigate(ts.URL+"/"),
		chromedp.WaitVisible(`#login`), // /v1/graph said 401
		chromedp.SendKeys(`#token`, "s3cret"),
		chromedp.Click(`#login button[type=submit]`),
		chromedp.WaitVisible(`#graph svg`),
		chromedp.SendKeys(`#q`, uiQuestion),
		chromedp.Click(`#send`),
		chromedp.WaitVisible(`.answer.done`),
	)
	answer := get(t, ctx, chromedp.Text(`.answer.done`))
	if !strings.Contains(answer, "30 days") {
		t.Errorf("answer %q", answer)
	}
}

// The page's files are served without a token, with a strict CSP, and
// nothing else is: the API still needs the token.
func TestUIHeaders(t *testing.T) {
	ts := uiServer(t, "s3cret")
	for _, p := range []string{"/", "/ui/app.js", "/ui/style.css"} {
		resp, err := http.Get(ts.URL + p)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		csp := resp.Header.Get("Content-Security-Policy")
		if resp.StatusCode != 200 || !strings.Contains(csp, "default-src 'none'") || strings.Contains(csp, "unsafe-inline") || resp.Header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s: %d, CSP %q", p, resp.StatusCode, csp)
		}
	}
	for _, p := range []string{"/v1/graph", "/v1/sources", "/ui/secret", "/ui/"} {
		resp, err := http.Get(ts.URL + p)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("%s without a token: %d, want 401", p, resp.StatusCode)
		}
	}
}

// GET /v1/sources reports what Config.Sources says, and 501 without it.
func TestSourcesEndpoint(t *testing.T) {
	s, err := New(Config{Runner: newFake().graph(t)})
	if err != nil {
		t.Fatal(err)
	}
	if w := do(s.Handler(), "GET", "/v1/sources", ""); w.Code != http.StatusNotImplemented {
		t.Errorf("without Config.Sources: %d, want 501", w.Code)
	}
	s, err = New(Config{Runner: newFake().graph(t), Sources: func(context.Context) (any, error) {
		return map[string]int{"documents": 7}, nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	w := do(s.Handler(), "GET", "/v1/sources", "")
	if w.Code != 200 || !strings.Contains(w.Body.String(), `"documents":7`) {
		t.Errorf("GET /v1/sources: %d %s", w.Code, w.Body)
	}
	if w := do(s.Handler(), "POST", "/v1/sources", "{}"); w.Code != http.StatusMethodNotAllowed {
		t.Errorf("POST /v1/sources: %d, want 405", w.Code)
	}
}
