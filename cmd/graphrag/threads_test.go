package main

import (
	"context"
	"os"
	"strings"
	"testing"
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
