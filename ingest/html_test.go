package ingest

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestHTMLSections: an HTML page's chunks carry the heading path of h1-h6
// and the page's source lines; <pre> keeps its lines.
func TestHTMLSections(t *testing.T) {
	src := `<!doctype html>
<html><head><title>Burrow guide</title>
<style>h1 { color: red }</style></head>
<body>
<h1>Burrow guide</h1>
<p>Burrows are dug by hand.</p>
<h2>Restore</h2>
<p>To restore a burrow
from a dump, run:</p>
<pre>burrow --restore dump.file
  burrow --check</pre>
<h2>Fill</h2>
<p>Fill it &amp; leave.</p>
</body></html>
`
	l, err := loadHTML(context.Background(), "guide.html", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if l.Title != "Burrow guide" {
		t.Errorf("title %q", l.Title)
	}
	chunks := chunkSections("guide.html", l.Sections, DefaultChunkSize, DefaultChunkOverlap)
	want := []struct {
		heading, text string
		start, end    int
	}{
		{"Burrow guide", "Burrow guide\n\nBurrows are dug by hand.", 5, 6},
		{"Burrow guide > Restore", "Restore\n\nTo restore a burrow from a dump, run:\n\nburrow --restore dump.file\n  burrow --check", 7, 11},
		{"Burrow guide > Fill", "Fill\n\nFill it & leave.", 12, 13},
	}
	if len(chunks) != len(want) {
		t.Fatalf("%d chunks, want %d: %+v", len(chunks), len(want), chunks)
	}
	for i, w := range want {
		c := chunks[i]
		if c.Heading != w.heading || c.Text != w.text || c.StartLine != w.start || c.EndLine != w.end {
			t.Errorf("chunk %d = %q %q lines %d-%d, want %q %q %d-%d", i, c.Heading, c.Text, c.StartLine, c.EndLine, w.heading, w.text, w.start, w.end)
		}
	}
}

// TestHTMLUnclosedTagsLinear: 400,000 unclosed "<a" (800 KB) took the old
// hand-written scanner minutes (quadratic: each '<' rescanned the rest for
// its '>'); the tokenizer reads it in one pass. The bound is two orders of
// magnitude above what one pass needs, so a loaded machine does not fail it.
func TestHTMLUnclosedTagsLinear(t *testing.T) {
	src := strings.Repeat("<a", 400000) + "<p>after</p>"
	done := make(chan string, 1)
	go func() {
		_, text := htmlText(src)
		done <- text
	}()
	select {
	case <-done:
	case <-time.After(15 * time.Second):
		t.Fatal("htmlText on 400,000 unclosed tags did not finish in 15 s: quadratic again")
	}
}

// BenchmarkHTMLUnclosedTags measures the tokenizer on '<a' * 200,000
// (issue 13 item 5: 20.8 s before).
//
//	go test ./ingest -run '^$' -bench HTMLUnclosedTags
func BenchmarkHTMLUnclosedTags(b *testing.B) {
	src := strings.Repeat("<a", 200000)
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		htmlText(src)
	}
}
