package ingest

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestChunk(t *testing.T) {
	sentence := func(i int) string { return strings.Repeat("word ", 15) + "number " + string(rune('a'+i%26)) + "." }
	var paras []string
	for p := 0; p < 6; p++ {
		var ss []string
		for s := 0; s < 4; s++ {
			ss = append(ss, sentence(p*4+s))
		}
		paras = append(paras, strings.Join(ss, " "))
	}
	long := strings.Join(paras, "\n\n")
	tests := []struct {
		name          string
		text          string
		size, overlap int
		want          int // chunks; -1: more than one
	}{
		{"blank", "  \n\n ", 100, 10, 0},
		{"short stays one", "One sentence. Two sentences.", 100, 10, 1},
		{"exactly size", strings.Repeat("a", 100), 100, 10, 1},
		{"long splits", long, 300, 80, -1},
		{"no spaces", strings.Repeat("x", 1000), 300, 0, 4},
		{"cjk sentences", strings.Repeat("这是一个句子。", 100), 120, 20, -1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Chunk(tc.text, tc.size, tc.overlap)
			if tc.want >= 0 && len(got) != tc.want {
				t.Fatalf("%d chunks, want %d: %q", len(got), tc.want, got)
			}
			if tc.want < 0 && len(got) < 2 {
				t.Fatalf("%d chunks, want several", len(got))
			}
			for i, c := range got {
				if n := utf8.RuneCountInString(c); n > tc.size {
					t.Errorf("chunk %d has %d runes > size %d", i, n, tc.size)
				}
				if strings.TrimSpace(c) != c || c == "" {
					t.Errorf("chunk %d not trimmed: %q", i, c)
				}
			}
		})
	}
	t.Run("sentence boundaries and overlap", func(t *testing.T) {
		got := Chunk(long, 300, 100)
		for i, c := range got {
			if !strings.HasSuffix(c, ".") {
				t.Errorf("chunk %d does not end at a sentence: %q", i, c[max(0, len(c)-20):])
			}
			if i > 0 {
				prev := got[i-1]
				cut := max(strings.LastIndex(prev, ". "), strings.LastIndex(prev, ".\n\n"))
				prevLast := strings.TrimSpace(prev[cut+1:])
				if !strings.HasPrefix(c, prevLast) {
					t.Errorf("chunk %d does not start with the last sentence of chunk %d", i, i-1)
				}
			}
		}
		// Every sentence is in some chunk.
		all := strings.Join(got, " ")
		for i := 0; i < 24; i++ {
			if !strings.Contains(all, sentence(i)) {
				t.Errorf("sentence %d lost", i)
			}
		}
	})
	t.Run("no overlap", func(t *testing.T) {
		got := Chunk(long, 300, 0)
		total := 0
		for _, c := range got {
			total += strings.Count(c, "number")
		}
		if total != 24 {
			t.Errorf("%d sentences across chunks, want 24 without overlap", total)
		}
	})
}

func TestHTMLText(t *testing.T) {
	tests := []struct {
		name, src, title, text string
	}{
		{"basic", `<html><head><title>My  Page</title><style>p{color:red}</style></head><body><h1>Head</h1><p>Hello &amp; welcome</p></body></html>`,
			"My Page", "Head\n\nHello & welcome"},
		{"script skipped", `<p>a</p><script>var x = "<p>not text</p>";</script><p>b</p>`, "", "a\n\nb"},
		{"comment", `x<!-- <p>hidden</p> -->y`, "", "xy"},
		{"attributes with >", `<a href="x>y" title='1>0'>link</a> text`, "", "link text"},
		{"lone lt", `1 < 2 and 3 > 2`, "", "1 < 2 and 3 > 2"},
		{"unclosed comment", `a<!-- b`, "", "a"},
		{"uppercase tags", `<SCRIPT>bad()</SCRIPT><P>ok</P>`, "", "ok"},
		{"br and inline", `one<br>two <b>bold</b>`, "", "one\ntwo bold"},
		{"entities", `&lt;tag&gt; &eacute;t&eacute; &#8364;`, "", "<tag> été €"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			title, text := htmlText(tc.src)
			if title != tc.title || text != tc.text {
				t.Errorf("got (%q, %q), want (%q, %q)", title, text, tc.title, tc.text)
			}
		})
	}
}

func TestLoadPDFGarbage(t *testing.T) {
	for _, data := range [][]byte{
		[]byte("%PDF-1.4\nthis is not really a pdf"),
		[]byte("%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\nxref\n0 1\n0000000000 65535 f \ntrailer << /Size 99 /Root 1 0 R >>\nstartxref\n9\n%%EOF\n"),
		{},
	} {
		if _, err := loadPDF(context.Background(), "bad.pdf", data); err == nil {
			t.Errorf("garbage PDF %q loaded without error", data[:min(len(data), 20)])
		}
	}
}

func TestParseCorpus(t *testing.T) {
	data := strings.Join([]string{
		`{"id": "a", "title": "A", "text": "alpha", "source": "x", "year": 1999, "ok": true, "nested": {"k": 1}}`,
		``,
		`{"id": "b", "text": "beta"}`,
		`not json`,
		`{"id": "c"}`,
		`{"id": "a", "text": "dup"}`,
		`{"id": 12345678901234567890, "text": "numeric id"}`,
		`{"id": "", "text": "empty id"}`,
		`{"id": "d", "text": 5}`,
		`["an", "array"]`,
	}, "\n")
	var rows []corpusRow
	var probs []Problem
	parseCorpus("c.jsonl", strings.NewReader(data), func(r corpusRow) bool { rows = append(rows, r); return true }, func(p Problem) { probs = append(probs, p) })
	var ids []string
	for _, r := range rows {
		ids = append(ids, r.id)
	}
	if strings.Join(ids, ",") != "a,b,12345678901234567890" {
		t.Errorf("ids = %v", ids)
	}
	if m := rows[0].meta; m["source"] != "x" || m["year"] != "1999" || m["ok"] != "true" || len(m) != 3 {
		t.Errorf("metadata = %v", m)
	}
	var lines []int
	for _, p := range probs {
		lines = append(lines, p.Line)
		if p.Reason != ReasonBadLine || p.Detail == "" {
			t.Errorf("problem %+v", p)
		}
	}
	if got := fmt.Sprint(lines); got != "[4 5 6 8 9 10]" {
		t.Errorf("bad lines = %v, want [4 5 6 8 9 10]", got)
	}
	if rows[0].hash == "" || rows[0].hash == rows[1].hash {
		t.Error("row hashes missing or equal")
	}
}
