package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/graphrag/graphrag"
)

func TestSearchCommand(t *testing.T) {
	c := newCLI(t)
	dir := sampleDir(t)
	c.ok("ingest", dir)

	t.Run("ranked passages with file and snippet", func(t *testing.T) {
		out := c.ok("search", "--color", "never", "nightly backup")
		first := strings.SplitN(out, "\n", 2)[0]
		if !strings.HasPrefix(strings.TrimSpace(first), "1. ") || !strings.Contains(first, "backup-runbook.md") || !strings.Contains(first, "score") {
			t.Fatalf("first hit line = %q; want rank, backup-runbook.md and a score\n%s", first, out)
		}
		if !strings.Contains(strings.ToLower(out), "nightly") {
			t.Errorf("no snippet with the query's words:\n%s", out)
		}
	})
	t.Run("json", func(t *testing.T) {
		out := c.ok("search", "--json", "--k", "3", "invoice")
		var hits []searchHit
		if err := json.Unmarshal([]byte(out), &hits); err != nil {
			t.Fatalf("--json: %v\n%s", err, out)
		}
		if len(hits) == 0 || len(hits) > 3 {
			t.Fatalf("got %d hits, want 1..3", len(hits))
		}
		for i, h := range hits {
			if h.Rank != i+1 || h.Path == "" || h.Snippet == "" || h.ChunkID == "" {
				t.Errorf("hit %d incomplete: %+v", i, h)
			}
		}
	})
	t.Run("filters", func(t *testing.T) {
		var hits []searchHit
		out := c.ok("search", "--json", "--type", "txt", "backup invoice network")
		if err := json.Unmarshal([]byte(out), &hits); err != nil {
			t.Fatal(err)
		}
		for _, h := range hits {
			if h.Type != "txt" {
				t.Errorf("--type txt returned %s (%s)", h.Path, h.Type)
			}
		}
		out = c.ok("search", "--json", "--path", filepath.Join(dir, "invoices"), "invoice")
		hits = nil
		if err := json.Unmarshal([]byte(out), &hits); err != nil {
			t.Fatal(err)
		}
		if len(hits) == 0 {
			t.Fatal("--path invoices found nothing")
		}
		for _, h := range hits {
			if !strings.HasPrefix(h.Path, filepath.Join(dir, "invoices")) {
				t.Errorf("--path invoices returned %s", h.Path)
			}
		}
		out = c.ok("search", "--since", "2099-01-01", "invoice")
		if !strings.Contains(out, "no passages match") {
			t.Errorf("--since in the future should match nothing:\n%s", out)
		}
	})
	t.Run("k must be positive", func(t *testing.T) {
		for _, k := range []string{"0", "-5"} {
			_, errs, code := c.run("", "search", "--k", k, "backup")
			if code == 0 || !strings.Contains(errs, `"--k" flag`) || !strings.Contains(errs, "1 or more") {
				t.Errorf("--k %s: exit %d, stderr %q; want a clear error", k, code, errs)
			}
		}
	})
	t.Run("query starting with a dash after --", func(t *testing.T) {
		out, errs, code := c.run("", "search", "--", "-nightly", "backup")
		if code != 0 || !strings.Contains(out, "backup-runbook.md") {
			t.Errorf("exit %d\n%s\n%s", code, out, errs)
		}
	})
}

func TestSnippetHighlightsTheDensestWindow(t *testing.T) {
	text := strings.Repeat("filler words about nothing in particular. ", 20) +
		"VACUUM FULL rewrites the table and locks it exclusively. " +
		strings.Repeat("more filler text follows here. ", 20)
	got := snippet(text, queryTerms("does vacuum full lock the table?"), 120, markHighlight)
	if !strings.Contains(got, "[VACUUM] [FULL]") || !strings.Contains(got, "[locks]") {
		t.Errorf("snippet = %q; want the VACUUM FULL sentence highlighted", got)
	}
	if !strings.HasPrefix(got, "…") || !strings.HasSuffix(got, "…") {
		t.Errorf("snippet = %q; want … at both cuts", got)
	}
	if n := len([]rune(strings.NewReplacer("[", "", "]", "").Replace(got))); n > 122 {
		t.Errorf("snippet has %d runes, want about 120", n)
	}
	// Short words do not light up longer ones.
	if got := highlightTerms("an index in the inbox", []string{"in"}, markHighlight); got != "an index [in] the inbox" {
		t.Errorf("highlight = %q", got)
	}
}

func TestHitLocation(t *testing.T) {
	h := graphrag.Hit{Source: graphrag.Source{Path: "/x/notes.md", Type: "md"}, Chunk: graphrag.Chunk{ID: "a#2", Ordinal: 2}}
	if got := hitLocation(h); !strings.HasSuffix(got, "notes.md (part 3)") {
		t.Errorf("without lines = %q", got)
	}
	h.Chunk.StartLine, h.Chunk.EndLine = 12, 20
	if got := hitLocation(h); !strings.HasSuffix(got, "notes.md:12-20") {
		t.Errorf("with lines = %q", got)
	}
	h.Chunk.EndLine = 12
	if got := hitLocation(h); !strings.HasSuffix(got, "notes.md:12") {
		t.Errorf("one line = %q", got)
	}
	c := graphrag.Chunk{Symbol: "strings.NewReader", Heading: "func NewReader(s string) *Reader"}
	if got := hitLabel(c); got != "strings.NewReader — func NewReader(s string) *Reader" {
		t.Errorf("label = %q", got)
	}
}

func TestParseSince(t *testing.T) {
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	for in, want := range map[string]time.Time{
		"7d":  now.AddDate(0, 0, -7),
		"2w":  now.AddDate(0, 0, -14),
		"36h": now.Add(-36 * time.Hour),
	} {
		if got, err := parseSince(in, now); err != nil || !got.Equal(want) {
			t.Errorf("parseSince(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	if got, err := parseSince("2026-01-31", now); err != nil || got.Year() != 2026 || got.Month() != 1 || got.Day() != 31 {
		t.Errorf("date = %v, %v", got, err)
	}
	if _, err := parseSince("yesterday-ish", now); err == nil || !strings.Contains(err.Error(), "7d") {
		t.Errorf("bad --since error = %v", err)
	}
}
