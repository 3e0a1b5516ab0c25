package main

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/graphrag/graphrag/llm/llmtest"
)

func TestSubjectOf(t *testing.T) {
	for q, want := range map[string]string{
		"what does VACUUM FULL do?":             "VACUUM FULL",
		"Where do ospreys nest in Scandinavia?": "ospreys",
		"how does the kayak trip start":         "the kayak trip",
		"what is the RPO of the order service?": "the RPO",
		"when does the nightly backup run?":     "the nightly backup",
		"what does shared_buffers control?":     "shared_buffers",
		"tell me about invoice INV-2024-0117":   "invoice INV-2024-0117",
		"why?":                                  "",
	} {
		if got := subjectOf(q); got != want {
			t.Errorf("subjectOf(%q) = %q, want %q", q, got, want)
		}
	}
}

func TestResolveFollowUp(t *testing.T) {
	for _, tc := range []struct {
		prev, query, want string
	}{
		{"what does VACUUM FULL do?", "does it lock the table?", "does VACUUM FULL lock the table?"},
		{"Where do ospreys nest in Scandinavia?", "how deep can they dive?", "how deep can ospreys dive?"},
		{"what does shared_buffers control?", "what is its default?", "what is shared_buffers's default?"},
		{"what does shared_buffers control?", "and how do I change that?", "and how do I change shared_buffers?"},
		// Not a pronoun for the previous subject:
		{"what does VACUUM FULL do?", "is it possible to restore a file from the backup?", ""},
		{"what does VACUUM FULL do?", "what about that invoice?", ""},
		{"what does VACUUM FULL do?", "how often should I feed the sourdough starter", ""},
		{"what does VACUUM FULL do?", "does VACUUM FULL lock it?", ""},
		{"", "does it lock the table?", ""},
	} {
		got, ok := resolveFollowUp(tc.query, tc.prev)
		if tc.want == "" {
			if ok {
				t.Errorf("resolveFollowUp(%q after %q) = %q; want it left alone", tc.query, tc.prev, got)
			}
			continue
		}
		if !ok || got != tc.want {
			t.Errorf("resolveFollowUp(%q after %q) = %q, %v; want %q", tc.query, tc.prev, got, ok, tc.want)
		}
	}
}

// vacuumNotes is a fixture where the follow-up's answer depends on which
// VACUUM "it" is: plain VACUUM does not lock the table, VACUUM FULL does.
func vacuumNotes(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"vacuum.md": "# VACUUM\n\nPlain VACUUM reclaims dead row versions for reuse. It does not lock the table: " +
			"reads and writes go on while it runs. Autovacuum runs it in the background.\n",
		"vacuum-full.md": "# VACUUM FULL\n\nVACUUM FULL rewrites the whole table into a new file and returns the space to the " +
			"operating system. It takes an ACCESS EXCLUSIVE lock, so the table is locked against reads and writes until it finishes.\n",
		"backup.md": "# Backups\n\nThe nightly backup runs at 02:30 with restic.\n",
	})
	return dir
}

func TestChatFollowUpResolvesThePronoun(t *testing.T) {
	c := newCLI(t)
	c.ok("ingest", vacuumNotes(t))
	out, errs, code := c.run("what does VACUUM FULL do?\ndoes it lock the table?\n", "chat")
	if code != 0 {
		t.Fatalf("chat: exit %d\n%s\n%s", code, out, errs)
	}
	if !strings.Contains(errs, "(taking it as: does VACUUM FULL lock the table?)") {
		t.Errorf("chat did not say how it read the follow-up:\n%s", errs)
	}
	parts := strings.SplitN(out, "Sources", 3)
	if len(parts) < 3 {
		t.Fatalf("want two answers with sources:\n%s", out)
	}
	second := parts[1][strings.Index(parts[1], "\n")+1:] + parts[2]
	if !strings.Contains(second, "ACCESS EXCLUSIVE") || !strings.Contains(second, "vacuum-full.md") {
		t.Errorf("the follow-up should be answered from VACUUM FULL's note:\n%s", second)
	}
}

func TestChatLeavesOnEOFAndKeepsNoHistoryFileWithoutATerminal(t *testing.T) {
	c := newCLI(t)
	c.ok("ingest", vacuumNotes(t))
	_, _, code := c.run("what does VACUUM FULL do?\n", "chat", "-q")
	if code != 0 {
		t.Fatalf("chat at end of input: exit %d", code)
	}
	if _, err := os.Stat(filepath.Join(c.env["XDG_DATA_HOME"], "graphrag", "chat_history")); err == nil {
		t.Errorf("piped chat wrote a history file")
	}
}

func TestInterruptsTakeOver(t *testing.T) {
	cancelled, handled := 0, 0
	in := &interrupts{cancel: func() { cancelled++ }}
	in.fire()
	restore := in.takeOver(func() { handled++ })
	in.fire()
	restore()
	in.fire()
	if cancelled != 2 || handled != 1 {
		t.Errorf("cancelled %d, handled %d; want the run cancelled twice and the answer once", cancelled, handled)
	}
	var none *interrupts
	none.takeOver(func() {})() // a nil *interrupts takes nothing over
}

// With a model, the writer must be asked about VACUUM FULL, not "it": a
// model left with "does it lock the table?" answered about plain VACUUM.
func TestChatFollowUpReachesTheModelResolved(t *testing.T) {
	c := newCLI(t)
	c.ok("ingest", vacuumNotes(t))
	var mu sync.Mutex
	var questions []string
	srv := llmtest.NewOllama(t, func(r llmtest.Request) llmtest.Reply {
		if q := between(r.Prompt(), "Question: ", "\n"); q != "" {
			mu.Lock()
			questions = append(questions, q)
			mu.Unlock()
		}
		return fakeModel(r)
	})
	c.env["GRAPHRAG_LLM"] = "ollama:qwen2.5:3b@" + srv.URL
	out, errs, code := c.run("what does VACUUM FULL do?\ndoes it lock the table?\n", "chat", "-q")
	if code != 0 {
		t.Fatalf("chat: exit %d\n%s\n%s", code, out, errs)
	}
	mu.Lock()
	defer mu.Unlock()
	sawResolved := false
	for _, q := range questions {
		if strings.Contains(q, "does it lock") {
			t.Errorf("the model was asked the unresolved follow-up %q", q)
		}
		sawResolved = sawResolved || strings.Contains(q, "does VACUUM FULL lock the table?")
	}
	if !sawResolved {
		t.Errorf("the model never saw the resolved follow-up; questions: %q", questions)
	}
}
