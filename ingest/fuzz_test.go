package ingest

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzChunk: chunks are never longer than the size, never blank, and
// every word of the text is in some chunk.
//
//	go test ./ingest -run '^$' -fuzz FuzzChunk -fuzztime 30s
func FuzzChunk(f *testing.F) {
	f.Add("One. Two! Three?\n\nFour", 10, 3)
	f.Add(strings.Repeat("x", 100), 7, 2)
	f.Add("这是。一个！句子？", 4, 1)
	f.Fuzz(func(t *testing.T, text string, size, overlap int) {
		if size < 1 || size > 5000 || overlap < 0 || !utf8.ValidString(text) {
			return
		}
		chunks := Chunk(text, size, overlap)
		all := strings.Join(chunks, " ")
		for _, c := range chunks {
			if n := utf8.RuneCountInString(c); n > size || strings.TrimSpace(c) == "" {
				t.Fatalf("chunk of %d runes (size %d): %q", n, size, c)
			}
		}
		for _, w := range strings.Fields(text) {
			if utf8.RuneCountInString(w) <= size/2 && !strings.Contains(all, w) {
				t.Fatalf("word %q lost", w)
			}
		}
	})
}

// FuzzHTMLText: any input gives valid UTF-8 text for valid UTF-8 input,
// and never panics.
func FuzzHTMLText(f *testing.F) {
	f.Add(`<html><title>t</title><script>x</script><p>a &amp; b</p>`)
	f.Add(`<a href="x>y">l</a><!-- c`)
	f.Add(`<<>><//>< p>`)
	f.Fuzz(func(t *testing.T, src string) {
		title, text := htmlText(src)
		if utf8.ValidString(src) && (!utf8.ValidString(title) || !utf8.ValidString(text)) {
			t.Fatalf("invalid UTF-8 out of valid input %q", src)
		}
	})
}

// FuzzSections: chunks cut from sections are never longer than the size,
// never blank, their lines are in order within the document, and every
// word of the text is in some chunk.
//
//	go test ./ingest -run '^$' -fuzz FuzzSections -fuzztime 30s
func FuzzSections(f *testing.F) {
	f.Add("# T\n\nIntro:\n\n```\ncode\n\ncode\n```\n\n- a\n  b\n- c", "md", 20, 5)
	f.Add("package p\n\n// F does.\nfunc F() {\n\tx()\n}\n", "go", 15, 0)
	f.Add("def f():\n    pass\n\nclass C:\n    pass\n", "py", 10, 3)
	f.Fuzz(func(t *testing.T, text, ext string, size, overlap int) {
		if size < 1 || size > 5000 || overlap < 0 || overlap >= size || !utf8.ValidString(text) || len(ext) > 5 {
			return
		}
		secs, _ := sectionsOf("f."+ext, ext, text, size)
		chunks := chunkSections("d", secs, size, overlap)
		var all strings.Builder
		for _, c := range chunks {
			if n := utf8.RuneCountInString(c.Text); n > size || strings.TrimSpace(c.Text) == "" {
				t.Fatalf("chunk of %d runes (size %d): %q", n, size, c.Text)
			}
			if c.StartLine < 0 || c.EndLine < c.StartLine || c.StartLine == 0 && c.EndLine != 0 {
				t.Fatalf("chunk lines %d-%d", c.StartLine, c.EndLine)
			}
			all.WriteString(c.Text + "\n")
		}
		got := all.String()
		for _, w := range strings.Fields(text) {
			if utf8.RuneCountInString(w) <= size/2 && !strings.Contains(got, w) && ext != "go" && !codeSkips(ext, text, w) {
				t.Fatalf("word %q lost", w)
			}
		}
	})
}

// codeSkips reports whether w may be left out on purpose: source code
// drops licence headers.
func codeSkips(ext, text, w string) bool {
	return codeLangs[ext] != nil && licenceHeader.MatchString(text)
}
