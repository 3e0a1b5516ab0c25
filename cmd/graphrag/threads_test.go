package main

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/graphrag/graphrag/llm/llmtest"
)

// Two separate runs of the command: the second continues the thread the
// first started, from the threads file beside the store.
func TestRunThreadContinuesAcrossRuns(t *testing.T) {
	c := newCLI(t)
	c.ok("ingest", vacuumNotes(t))
	c.ok("run", "--thread", "vacuum", "what does VACUUM FULL do?")

	out, errs, code := c.run("", "run", "--thread", "vacuum", "does it lock the table?")
	if code != 0 {
		t.Fatalf("second run: exit %d\n%s\n%s", code, out, errs)
	}
	if !strings.Contains(errs, "(taking it as: does VACUUM FULL lock the table?)") {
		t.Errorf("the second run did not see the first's turn:\n%s", errs)
	}
	if !strings.Contains(out, "ACCESS EXCLUSIVE") {
		t.Errorf("the follow-up should be answered from VACUUM FULL's note:\n%s", out)
	}

	t.Run("another thread starts empty", func(t *testing.T) {
		_, errs, _ := c.run("", "run", "--thread", "other", "does it lock the table?")
		if strings.Contains(errs, "taking it as") {
			t.Errorf("thread other saw thread vacuum's turns:\n%s", errs)
		}
	})
	t.Run("chat continues the thread", func(t *testing.T) {
		_, errs, code := c.run("does it lock the table?\n", "chat", "--thread", "vacuum")
		if code != 0 {
			t.Fatalf("chat: exit %d\n%s", code, errs)
		}
		if !strings.Contains(errs, "continuing after 2 earlier turn(s)") || !strings.Contains(errs, "taking it as: does VACUUM FULL lock") {
			t.Errorf("chat --thread did not continue the stored conversation:\n%s", errs)
		}
	})
	t.Run("chat /reset deletes the thread", func(t *testing.T) {
		c.ok("chat", "--thread", "vacuum") // stdin empty: leaves at once
		_, _, code := c.run("/reset\n", "chat", "--thread", "vacuum")
		if code != 0 {
			t.Fatalf("chat /reset: exit %d", code)
		}
		_, errs, _ := c.run("", "run", "--thread", "vacuum", "does it lock the table?")
		if strings.Contains(errs, "taking it as") {
			t.Errorf("the thread survived /reset:\n%s", errs)
		}
	})
}

func TestThreadsFileBesideTheStore(t *testing.T) {
	c := newCLI(t)
	c.ok("ingest", vacuumNotes(t))
	c.ok("run", "-q", "--thread", "t", "what does VACUUM FULL do?")
	a := &app{getenv: func(k string) string { return c.env[k] }}
	path := threadsPath(defaultStorePath(a.getenv))
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("no threads file beside the store: %v", err)
	}
	a.store = defaultStorePath(a.getenv)
	st, closeFn, err := a.openThreads(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer closeFn()
	h, err := st.History(context.Background(), "t")
	if err != nil || len(h) != 1 || h[0].Query != "what does VACUUM FULL do?" || !strings.Contains(h[0].Answer, "VACUUM FULL") {
		t.Errorf("stored history = %+v, %v", h, err)
	}
}

func TestRunThreadRefusesABadName(t *testing.T) {
	c := newCLI(t)
	c.ok("ingest", vacuumNotes(t))
	_, errs, code := c.run("", "run", "--thread", "a\tb", "what does VACUUM FULL do?")
	if code == 0 || !strings.Contains(errs, "control characters") {
		t.Errorf("exit %d, stderr:\n%s", code, errs)
	}
}

// serve keeps threads in the same store: a query naming the thread that
// `run --thread` started gives the model the earlier turn, and is kept.
func TestServeThreadSharesRunsThreads(t *testing.T) {
	c := newCLI(t)
	c.ok("ingest", vacuumNotes(t))
	var mu sync.Mutex
	var prompts []string
	srv := llmtest.NewOllama(t, func(r llmtest.Request) llmtest.Reply {
		mu.Lock()
		prompts = append(prompts, r.Prompt())
		mu.Unlock()
		return fakeModel(r)
	})
	c.env["GRAPHRAG_LLM"] = "ollama:qwen2.5:3b@" + srv.URL
	c.ok("run", "-q", "--thread", "vac", "what does VACUUM FULL do?")
	mu.Lock()
	prompts = nil
	mu.Unlock()

	in := `{"id": 1, "method": "query", "params": {"query": "does VACUUM FULL lock the table?", "thread": "vac", "stream": "json"}}` + "\n"
	out, errs, code := c.run(in, "-q", "serve", "--stdio")
	if code != 0 || !strings.Contains(out, `"result"`) {
		t.Fatalf("serve: exit %d\n%s\n%s", code, out, errs)
	}
	mu.Lock()
	sawTurn := false
	for _, p := range prompts {
		sawTurn = sawTurn || strings.Contains(p, "User: what does VACUUM FULL do?")
	}
	mu.Unlock()
	if !sawTurn {
		t.Errorf("no model prompt had the thread's earlier turn:\n%s", strings.Join(prompts, "\n---\n"))
	}

	a := &app{getenv: func(k string) string { return c.env[k] }}
	a.store = defaultStorePath(a.getenv)
	st, closeFn, err := a.openThreads(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer closeFn()
	h, err := st.History(context.Background(), "vac")
	if err != nil || len(h) != 2 || h[1].Query != "does VACUUM FULL lock the table?" {
		t.Errorf("thread after serve = %+v, %v; want run's turn then serve's", h, err)
	}
}

func TestThreadsCommand(t *testing.T) {
	c := newCLI(t)
	c.ok("ingest", vacuumNotes(t))
	if out := c.ok("threads"); !strings.Contains(out, "No conversations yet") {
		t.Errorf("threads before any: %s", out)
	}
	if out := c.ok("threads", "--json"); strings.TrimSpace(out) != "[]" {
		t.Errorf("threads --json before any: %s", out)
	}
	c.ok("run", "-q", "--thread", "vac", "what does VACUUM FULL do?")
	c.ok("run", "-q", "--thread", "vac", "does VACUUM FULL lock the table?")
	c.ok("run", "-q", "--thread", "other", "what does VACUUM do?")

	var list []struct {
		Name  string `json:"name"`
		Turns int    `json:"turns"`
		Last  string `json:"last_question"`
	}
	if err := json.Unmarshal([]byte(c.ok("threads", "--json")), &list); err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || list[0].Name != "other" || list[1].Name != "vac" || list[1].Turns != 2 || list[1].Last != "does VACUUM FULL lock the table?" {
		t.Errorf("threads --json = %+v", list)
	}
	if out := c.ok("threads"); !strings.Contains(out, "vac ") || !strings.Contains(out, "does VACUUM FULL lock the table?") {
		t.Errorf("threads:\n%s", out)
	}
	if out := c.ok("threads", "show", "vac"); !strings.Contains(out, "[2] does VACUUM FULL lock the table?") || !strings.Contains(out, "ACCESS EXCLUSIVE") {
		t.Errorf("threads show:\n%s", out)
	}
	if out := c.ok("threads", "rm", "vac"); !strings.Contains(out, "deleted vac (2 turns)") {
		t.Errorf("threads rm: %s", out)
	}
	if _, errs, code := c.run("", "threads", "rm", "vac"); code == 0 || !strings.Contains(errs, `no conversation called "vac"`) {
		t.Errorf("rm of a missing thread: exit %d, %s", code, errs)
	}
	if out := c.ok("threads"); strings.Contains(out, "vac ") || !strings.Contains(out, "other") {
		t.Errorf("threads after rm:\n%s", out)
	}
}
