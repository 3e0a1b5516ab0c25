package main

import (
	"strings"
	"testing"
)

// A question past nodes.MaxQueryWords is refused at once, with a reason and
// without echoing it back, before any store is opened (this CLI has none).
func TestRunRefusesAnOversizedQuestion(t *testing.T) {
	c := newCLI(t)
	huge := strings.Repeat("lorem ipsum dolor sit amet ", 25_000) // 125,000 words
	_, errs, code := c.run("", "run", huge)
	if code == 0 || !strings.Contains(errs, "ask a shorter question") {
		t.Fatalf("exit %d, stderr %.300q: want a refusal that says the question is too long", code, errs)
	}
	if len(errs) > 1000 {
		t.Errorf("the error is %d bytes: it should not repeat the question", len(errs))
	}
}

// In chat an oversized line is refused and the session goes on.
func TestChatRefusesAnOversizedQuestion(t *testing.T) {
	c := newCLI(t)
	c.ok("ingest", sampleDir(t))
	huge := strings.Repeat("why ", 3000)
	out, errs, code := c.run(huge+"\nWhen does the nightly backup run?\n/quit\n", "chat", "--quiet")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(errs, "more than 2000 words") || !strings.Contains(out, "02:30") {
		t.Fatalf("stderr %.300q\nstdout %.500q\nwant the long line refused and the next one answered", errs, out)
	}
}
