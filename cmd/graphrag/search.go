package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/graphrag/graphrag"
	"github.com/spf13/cobra"
)

// snippetRunes is how much of a passage search shows: about two lines of a
// terminal, enough to judge a hit without opening the file.
const snippetRunes = 200

func (a *app) searchCmd() *cobra.Command {
	var (
		k          int
		asJSON     bool
		types      []string
		path       string
		since      string
		mode       string
		color      string
		fullChunks bool
	)
	cmd := &cobra.Command{
		Use:   "search QUERY",
		Short: "Ranked passages for a query, with file:line, score and a snippet (no answer)",
		Long: `Search the store and print the best passages, best first: where each comes
from (file:line, and the heading or symbol when the store knows it), its score
and a snippet with the query's words highlighted. No model is asked; this is
the store's own ranking (keyword, or hybrid when the store has embeddings).

A query that starts with "-" goes after "--": graphrag search -- -race flag`,
		Example: `  graphrag search "nightly backup"
  graphrag search --type go --path src/net "dial timeout"
  graphrag search --since 7d --json invoice | jq '.[].path'`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			q := strings.TrimSpace(strings.Join(args, " "))
			if q == "" {
				return errNoQuery
			}
			if color != "auto" && color != "always" && color != "never" {
				return fmt.Errorf("--color %q: want auto, always or never", color)
			}
			m, err := parseMode(mode)
			if err != nil {
				return err
			}
			f, err := searchFilters(types, path, since, time.Now())
			if err != nil {
				return err
			}
			emb, err := a.embedder(ctx)
			if err != nil {
				return err
			}
			st, err := a.openStore(ctx, emb, false)
			if err != nil {
				return err
			}
			defer st.Close()
			res, err := st.Search(ctx, graphrag.Query{Text: q, Mode: m, K: k, Filters: f})
			if err != nil {
				return fmt.Errorf("search %q: %w", q, err)
			}
			out := cmd.OutOrStdout()
			if asJSON {
				return writeSearchJSON(out, q, res)
			}
			hl := plainHighlight
			if color == "always" || color == "auto" && isTerminal(out) {
				hl = ansiHighlight
			}
			if len(res.Hits) == 0 {
				fmt.Fprintf(out, "no passages match %q", q)
				if !f.IsZero() {
					fmt.Fprint(out, " with these filters")
				}
				fmt.Fprintln(out)
				return nil
			}
			printHits(out, q, res.Hits, hl, fullChunks)
			return nil
		},
	}
	cmd.Flags().Var(newAtLeast(&k, 10, 1, "how many passages to show"), "k", "how many passages to show")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print a JSON array of hits (path, lines, heading, symbol, score, snippet, text)")
	cmd.Flags().StringSliceVar(&types, "type", nil, "only these file types, e.g. --type go,md (repeatable)")
	cmd.Flags().StringVar(&path, "path", "", "only files under this path (an existing directory or file), or whose path contains this text")
	cmd.Flags().StringVar(&since, "since", "", "only files modified since: a date (2026-01-31) or an age (36h, 7d, 2w)")
	cmd.Flags().StringVar(&mode, "mode", "hybrid", "ranking: keyword, vector or hybrid (a store without embeddings always uses keyword)")
	cmd.Flags().StringVar(&color, "color", "auto", "highlight the query's words: auto (on a terminal), always or never")
	cmd.Flags().BoolVar(&fullChunks, "full", false, "print each passage whole instead of a snippet")
	completeWords(cmd, "mode", "keyword", "vector", "hybrid")
	completeWords(cmd, "color", "auto", "always", "never")
	completeWords(cmd, "since", "1d", "7d", "2w", "30d")
	return cmd
}

func parseMode(s string) (graphrag.SearchMode, error) {
	switch m := graphrag.SearchMode(strings.ToLower(s)); m {
	case graphrag.ModeKeyword, graphrag.ModeVector, graphrag.ModeHybrid:
		return m, nil
	}
	return "", fmt.Errorf("--mode %q: want keyword, vector or hybrid", s)
}

// searchFilters turns search's flags into store filters. A --path that
// exists is made absolute (stored paths are), so "notes/a" and "./notes/a"
// work from anywhere; otherwise it is matched as text.
func searchFilters(types []string, path, since string, now time.Time) (graphrag.Filters, error) {
	var f graphrag.Filters
	for _, t := range types {
		t = strings.ToLower(strings.TrimPrefix(strings.TrimSpace(t), "."))
		if t != "" {
			f.Types = append(f.Types, t)
		}
	}
	if path != "" {
		f.Source = path
		if _, err := os.Stat(path); err == nil {
			if abs, err := filepath.Abs(path); err == nil {
				if real, err := filepath.EvalSymlinks(abs); err == nil {
					abs = real
				}
				f.Source = abs
			}
		}
	}
	if since != "" {
		t, err := parseSince(since, now)
		if err != nil {
			return f, err
		}
		f.Since = t
	}
	return f, nil
}

// parseSince reads a date (2006-01-02, or RFC 3339) or an age before now:
// a Go duration (36h, 90m) or a number of days or weeks (7d, 2w).
func parseSince(s string, now time.Time) (time.Time, error) {
	s = strings.TrimSpace(s)
	if t, err := time.ParseInLocation("2006-01-02", s, time.Local); err == nil {
		return t, nil
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	if n := len(s); n > 1 && (s[n-1] == 'd' || s[n-1] == 'w') {
		if v, err := strconv.Atoi(s[:n-1]); err == nil && v >= 0 {
			days := v
			if s[n-1] == 'w' {
				days *= 7
			}
			return now.AddDate(0, 0, -days), nil
		}
	}
	if d, err := time.ParseDuration(s); err == nil && d >= 0 {
		return now.Add(-d), nil
	}
	return time.Time{}, fmt.Errorf("--since %q: want a date (2026-01-31) or an age (36h, 7d, 2w)", s)
}

// searchHit is one hit of `graphrag search --json`.
type searchHit struct {
	Rank     int       `json:"rank"`
	Path     string    `json:"path"`
	Title    string    `json:"title,omitempty"`
	Type     string    `json:"type,omitempty"`
	DocID    string    `json:"doc_id"`
	ChunkID  string    `json:"chunk_id"`
	Line     int       `json:"line,omitempty"`
	EndLine  int       `json:"end_line,omitempty"`
	Heading  string    `json:"heading,omitempty"`
	Symbol   string    `json:"symbol,omitempty"`
	Kind     string    `json:"kind,omitempty"`
	Score    float64   `json:"score"`
	Modified time.Time `json:"modified,omitzero"`
	Snippet  string    `json:"snippet"`
	Text     string    `json:"text"`
}

func writeSearchJSON(out io.Writer, q string, res graphrag.SearchResult) error {
	hits := make([]searchHit, len(res.Hits))
	for i, h := range res.Hits {
		hits[i] = searchHit{
			Rank: i + 1, Path: h.Source.Path, Title: h.Source.Title, Type: h.Source.Type,
			DocID: h.Chunk.DocID, ChunkID: h.Chunk.ID,
			Line: h.Chunk.StartLine, EndLine: h.Chunk.EndLine,
			Heading: h.Chunk.Heading, Symbol: h.Chunk.Symbol, Kind: h.Chunk.Kind,
			Score: h.Score, Modified: h.Source.ModTime,
			Snippet: snippet(h.Chunk.Text, queryTerms(q), snippetRunes, plainHighlight),
			Text:    h.Chunk.Text,
		}
	}
	enc := json.NewEncoder(out)
	enc.SetIndent("", "  ")
	return enc.Encode(hits)
}

func printHits(out io.Writer, q string, hits []graphrag.Hit, hl highlighter, full bool) {
	terms := queryTerms(q)
	for i, h := range hits {
		if i > 0 {
			fmt.Fprintln(out)
		}
		where := hitLocation(h)
		if label := hitLabel(h.Chunk); label != "" {
			where += " · " + label
		}
		fmt.Fprintf(out, "%2d. %s  (score %.3g)\n", i+1, where, h.Score)
		text := h.Chunk.Text
		if !full {
			text = snippet(text, terms, snippetRunes, hl)
		} else {
			text = highlightTerms(text, terms, hl)
		}
		for _, line := range strings.Split(text, "\n") {
			fmt.Fprintf(out, "    %s\n", line)
		}
	}
}

// hitLocation is file:line (or file:start-end) when the store knows the
// chunk's lines, the file alone otherwise; a corpus row is named by its id.
func hitLocation(h graphrag.Hit) string {
	src := h.Source
	if src.Type == "jsonl" {
		return fmt.Sprintf("%s (%s: %s)", src.Title, displayRel(src.Path), src.DocID)
	}
	where := displayRel(src.Path)
	if where == "" {
		where = src.Title
	}
	c := h.Chunk
	switch {
	case c.StartLine > 0 && c.EndLine > c.StartLine:
		return fmt.Sprintf("%s:%d-%d", where, c.StartLine, c.EndLine)
	case c.StartLine > 0:
		return fmt.Sprintf("%s:%d", where, c.StartLine)
	case c.Ordinal > 0:
		return fmt.Sprintf("%s (part %d)", where, c.Ordinal+1)
	}
	return where
}

// hitLabel is the heading or symbol a chunk sits under, "" when unknown.
func hitLabel(c graphrag.Chunk) string {
	switch {
	case c.Symbol != "" && c.Heading != "" && !strings.Contains(c.Heading, c.Symbol):
		return c.Symbol + " — " + c.Heading
	case c.Heading != "":
		return c.Heading
	}
	return c.Symbol
}

// highlighter wraps a matched word for display.
type highlighter struct{ open, close string }

var (
	plainHighlight = highlighter{}
	ansiHighlight  = highlighter{"\x1b[1;33m", "\x1b[0m"}
	markHighlight  = highlighter{"[", "]"} // tests and --color=never readers who want to see matches
)

// queryTerms are the lower-case words of a query worth highlighting: words
// of two or more letters or digits.
func queryTerms(q string) []string {
	var out []string
	seen := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(q), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' }) {
		if len([]rune(w)) < 2 || seen[w] {
			continue
		}
		seen[w] = true
		out = append(out, w)
	}
	return out
}

// minStemPrefix is the shortest query word that also highlights longer words
// it begins ("lock" → "locks", "locking"): a crude stand-in for the stores'
// stemming, long enough that "in" does not light up "index".
const minStemPrefix = 4

// matches reports whether the lower-case word w is one the query asked for.
func matches(w string, terms []string) bool {
	for _, t := range terms {
		if w == t || len(t) >= minStemPrefix && strings.HasPrefix(w, t) {
			return true
		}
	}
	return false
}

// span is a word of a text, by rune offsets.
type span struct{ start, end int }

func words(r []rune) []span {
	var out []span
	start := -1
	for i, c := range r {
		in := unicode.IsLetter(c) || unicode.IsDigit(c) || c == '_'
		switch {
		case in && start < 0:
			start = i
		case !in && start >= 0:
			out = append(out, span{start, i})
			start = -1
		}
	}
	if start >= 0 {
		out = append(out, span{start, len(r)})
	}
	return out
}

// snippet returns about n runes of text around the densest run of query
// words, on one line, with "…" where it was cut and each query word
// highlighted.
func snippet(text string, terms []string, n int, hl highlighter) string {
	r := []rune(strings.Join(strings.Fields(text), " "))
	if len(r) <= n {
		return highlightRunes(r, terms, hl)
	}
	ws := words(r)
	var hits []int // rune offsets of matched words
	for _, w := range ws {
		if matches(strings.ToLower(string(r[w.start:w.end])), terms) {
			hits = append(hits, w.start)
		}
	}
	start := 0
	if len(hits) > 0 {
		// The window of n runes that holds the most matches, starting a
		// little before its first one.
		best, bestCount := hits[0], 0
		for i, h := range hits {
			c := 0
			for _, g := range hits[i:] {
				if g-h >= n*3/4 {
					break
				}
				c++
			}
			if c > bestCount {
				best, bestCount = h, c
			}
		}
		start = max(0, best-n/4)
	}
	end := min(len(r), start+n)
	if end-start < n {
		start = max(0, end-n)
	}
	// Cut at word boundaries.
	for start > 0 && start < len(r) && !unicode.IsSpace(r[start-1]) {
		start++
	}
	for end < len(r) && end > start && !unicode.IsSpace(r[end]) {
		end--
	}
	out := highlightRunes(r[start:end], terms, hl)
	if start > 0 {
		out = "…" + out
	}
	if end < len(r) {
		out += "…"
	}
	return out
}

func highlightTerms(text string, terms []string, hl highlighter) string {
	return highlightRunes([]rune(text), terms, hl)
}

func highlightRunes(r []rune, terms []string, hl highlighter) string {
	if hl.open == "" || len(terms) == 0 {
		return string(r)
	}
	var b strings.Builder
	last := 0
	for _, w := range words(r) {
		if !matches(strings.ToLower(string(r[w.start:w.end])), terms) {
			continue
		}
		b.WriteString(string(r[last:w.start]))
		b.WriteString(hl.open)
		b.WriteString(string(r[w.start:w.end]))
		b.WriteString(hl.close)
		last = w.end
	}
	b.WriteString(string(r[last:]))
	return b.String()
}
