package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/graph"
	"github.com/graphrag/graphrag/llm"
	"github.com/graphrag/graphrag/nodes"
	"github.com/graphrag/graphrag/retrievers/fstools"
	"github.com/graphrag/graphrag/retrievers/web"
)

// pipeline is everything a question needs: the store, the models (nil when
// none is configured), and the compiled RAG graph.
type pipeline struct {
	store  store
	models *llm.Models
	// embedder is the store's embedder, nil for keyword-only stores.
	embedder graphrag.Embedder
	graph    *graph.Runnable[nodes.State]
	// pauses keeps the checkpoints of runs that can pause before the web
	// search (--confirm-web; nil without it), ask answers them in run and
	// chat (serve's clients answer over the wire).
	pauses *graph.MemorySaver
	ask    webAsker
	// notices are said once to the user, e.g. that no model is configured.
	notices []string
}

func (p *pipeline) Close() error { return p.store.Close() }

// httpClient is the client every model and web request goes through.
func httpClient() *http.Client {
	return &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}
}

// llmConfig turns the --llm, --router-llm, --embed and --vision settings into a
// configuration; ok is false when no chat model is configured.
func (a *app) llmConfig() (cfg llm.Config, ok bool, err error) {
	cfg = llm.DefaultConfig()
	writer, router := a.llm, a.routerLLM
	if router == "" {
		router = writer
	}
	if writer == "" {
		writer = router
	}
	if router != "" {
		if cfg.Router, err = llm.ParseSpec(router); err != nil {
			return cfg, false, fmt.Errorf("--router-llm/--llm %q: %w", router, err)
		}
		if cfg.Writer, err = llm.ParseSpec(writer); err != nil {
			return cfg, false, fmt.Errorf("--llm %q: %w", writer, err)
		}
		ok = true
	}
	if a.embed != "" {
		if cfg.Embed, err = llm.ParseSpec(a.embed); err != nil {
			return cfg, false, fmt.Errorf("--embed %q: %w", a.embed, err)
		}
	}
	if a.vision != "" {
		if cfg.Vision, err = llm.ParseSpec(a.vision); err != nil {
			return cfg, false, fmt.Errorf("--vision %q: %w", a.vision, err)
		}
	}
	return cfg, ok, nil
}

// embedder builds the configured embedding model, or returns nil for none.
func (a *app) embedder(ctx context.Context) (graphrag.Embedder, error) {
	if a.embed == "" {
		return nil, nil
	}
	cfg, _, err := a.llmConfig()
	if err != nil {
		return nil, err
	}
	e, err := llm.NewEmbedder(ctx, cfg.Embed, cfg, httpClient())
	if err != nil {
		return nil, fmt.Errorf("embedding model %s: %w (check it with `graphrag doctor`)", a.embed, err)
	}
	return e, nil
}

// models builds the configured language models and embedder; both are nil
// when none is configured.
func (a *app) models(ctx context.Context) (*llm.Models, graphrag.Embedder, error) {
	cfg, haveLLM, err := a.llmConfig()
	if err != nil {
		return nil, nil, err
	}
	if !haveLLM {
		emb, err := a.embedder(ctx)
		return nil, emb, err
	}
	m, err := llm.New(ctx, cfg, httpClient())
	if err != nil {
		return nil, nil, fmt.Errorf("language models: %w (check them with `graphrag doctor`)", err)
	}
	if e := m.Embedder(); e != nil {
		return m, e, nil
	}
	return m, nil, nil
}

// modelDeps plugs the models into the graph's dependencies, or returns the
// notice that there are none.
func modelDeps(m *llm.Models, deps *nodes.Deps) (notice string) {
	if m == nil {
		return "No language model configured: answering extractively from your files. " +
			"For written answers start Ollama and pass --llm ollama:qwen2.5:3b (or set GRAPHRAG_LLM); see `graphrag doctor`."
	}
	deps.Planner = m.Planner()
	deps.Grader = m.Grader()
	deps.Rewriter = m.Rewriter()
	deps.Writer = m.Writer()
	deps.Judge = m.Judge()
	return ""
}

// openPipeline opens the store and models and builds the RAG graph.
func (a *app) openPipeline(ctx context.Context, opts nodes.Options) (*pipeline, error) {
	m, emb, err := a.models(ctx)
	if err != nil {
		return nil, err
	}
	st, err := a.openStore(ctx, emb, false)
	if err != nil {
		return nil, err
	}
	p := &pipeline{store: st, models: m, embedder: emb}
	deps := nodes.Deps{Searcher: st}
	if n := modelDeps(m, &deps); n != "" {
		p.notices = append(p.notices, n)
	}
	if err := a.tools(st, &deps); err != nil {
		st.Close()
		return nil, err
	}
	var compile []graph.CompileOption
	if opts.ConfirmWeb = opts.ConfirmWeb && deps.Web != nil; opts.ConfirmWeb {
		// A run pauses before the web search, so it needs a checkpointer
		// to resume from: in memory, as the question does not outlive the
		// process.
		p.pauses, p.ask = graph.NewMemorySaver(), a.confirmWeb
		// Only the latest checkpoint of a run is needed to resume it.
		compile = append(compile, graph.WithCheckpointer(p.pauses), graph.WithRetention(graph.Retention{KeepLast: 1}))
	}
	g, err := nodes.Build(deps, opts, compile...)
	if err != nil {
		st.Close()
		return nil, fmt.Errorf("build the RAG graph: %w", err)
	}
	p.graph = g
	return p, nil
}

// tools plugs in the filesystem tools over the ingested directories and the
// web search provider, when configured.
func (a *app) tools(st store, deps *nodes.Deps) error {
	deps.Tools = &lazyTools{st: st, paths: a.ingestedPathsFile(), index: storeIndex{st, a}}
	if a.web != "" {
		ws, err := a.webSearcher()
		if err != nil {
			return err
		}
		deps.Web = ws
	}
	return nil
}

// lazyTools builds the filesystem tools on the first question that needs
// them: finding the ingested directories reads every document of the store,
// work that most questions never need.
type lazyTools struct {
	st    store
	paths string // the record of ingested paths (app.ingestedPathsFile)
	index storeIndex
	mu    sync.Mutex
	tools *fstools.Tools
	built bool
}

var (
	_ nodes.FileSelector   = (*lazyTools)(nil)
	_ nodes.StoreQuestions = (*lazyTools)(nil)
)

// get returns the tools, or nil when the store holds no files of the user's.
func (l *lazyTools) get(ctx context.Context) (*fstools.Tools, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.built {
		return l.tools, nil
	}
	roots, err := ingestedRoots(ctx, l.st, l.paths)
	if err != nil {
		return nil, err
	}
	if len(roots) > 0 {
		if l.tools, err = fstools.New(roots, fstools.Options{Index: l.index}); err != nil {
			return nil, fmt.Errorf("filesystem tools: %w", err)
		}
	}
	l.built = true
	return l.tools, nil
}

func (l *lazyTools) Answer(ctx context.Context, plan graphrag.Plan) (string, []graphrag.Hit, error) {
	t, err := l.get(ctx)
	if err != nil {
		return "", nil, err
	}
	if t == nil && l.index.app != nil && fstools.AboutStore(plan.Query) {
		text, err := answerAboutStore(ctx, l.index)
		return text, nil, err
	}
	if t == nil {
		return "", nil, fmt.Errorf("no ingested directories to look in: %w", graphrag.ErrNotConfigured)
	}
	return t.Answer(ctx, plan)
}

// AboutStore reports whether a question is about the store itself, which
// the tools answer from its record (nodes.StoreQuestions).
func (l *lazyTools) AboutStore(query string) bool { return fstools.AboutStore(query) }

func (l *lazyTools) Select(ctx context.Context, plan graphrag.Plan) ([]string, error) {
	t, err := l.get(ctx)
	if err != nil || t == nil {
		return nil, err // no tools: do not narrow
	}
	return t.Select(ctx, plan)
}

func (a *app) webSearcher() (nodes.WebSearcher, error) {
	provider, url, ok := strings.Cut(a.web, "=")
	if !ok || provider != "searxng" {
		return nil, fmt.Errorf("--web %q: want searxng=URL, e.g. searxng=http://localhost:8888", a.web)
	}
	ws, err := web.NewSearxNG(url, &http.Client{Timeout: 15 * time.Second}, web.SearxNGOptions{})
	if err != nil {
		return nil, fmt.Errorf("--web: %w", err)
	}
	return ws, nil
}

// ingestedRoots returns the paths the filesystem tools may see: exactly
// what was given to ingest (recorded in file), and the store's files no
// recorded path covers, each alone (see toolRoots). Corpus rows (JSONL) are
// not files of the user's and are left out.
func ingestedRoots(ctx context.Context, st store, file string) ([]string, error) {
	recorded, err := readIngestedPaths(file)
	if err != nil {
		return nil, err
	}
	docs, err := st.Manifest(ctx)
	if err != nil {
		return nil, fmt.Errorf("read the store's documents: %w", err)
	}
	var files []string
	for _, d := range docs {
		if d.Path != "" && filepath.IsAbs(d.Path) && !isCorpusPath(d.Path) {
			files = append(files, d.Path)
		}
	}
	return toolRoots(recorded, files), nil
}

// within reports whether path is dir or below it.
func within(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// errNoQuery is returned when a command needs a question and got none.
var errNoQuery = errors.New("no question given")
