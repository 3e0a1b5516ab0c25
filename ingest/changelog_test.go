package ingest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestChangelogChunksNameTheirRelease: a chunk of a Debian changelog cut
// inside a long entry is headed by that entry's release line,
// so that it still says which release its fixes are in; a chunk that
// writes a release line keeps no heading (its text names its releases);
// a text that only quotes a release line further down is not a changelog.
func TestChangelogChunksNameTheirRelease(t *testing.T) {
	var b strings.Builder
	b.WriteString("quillfrob (4.2.7-1) trixie-security; urgency=high\n\n  * New upstream stable update:\n")
	for i := range 60 {
		fmt.Fprintf(&b, "    - quill: Mend the frob spool for widget %d (CVE-2031-%05d)\n", i, 1000+i)
	}
	b.WriteString("\n -- Mara Quill <mara@example.org>  Tue, 02 Dec 2031 10:00:00 +0000\n\n")
	b.WriteString("quillfrob (4.2.6-3) trixie; urgency=medium\n\n  * Drop the old spool format.\n\n")
	b.WriteString(" -- Mara Quill <mara@example.org>  Mon, 01 Dec 2031 10:00:00 +0000\n")
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "quillfrob"), 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, "quillfrob", name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("changelog.Debian", b.String())
	notes := "Notes on quillfrob.\n\nThe release line reads:\nquillfrob (4.2.7-1) trixie-security; urgency=high\n\n" +
		strings.Repeat("The spool keeps one frob per widget and mends it on the next start.\n", 20)
	write("NOTES", notes)
	st, _ := ingestDir(t, dir, Options{ChunkSize: 400, ChunkOverlap: 50})
	stored := map[string]bool{}
	for _, r := range st.recs {
		stored[filepath.Base(r.Doc.Path)] = true
		switch filepath.Base(r.Doc.Path) {
		case "changelog.Debian":
			if len(r.Chunks) < 4 {
				t.Fatalf("%d chunks, want a long entry cut in several", len(r.Chunks))
			}
			const release = "quillfrob (4.2.7-1) trixie-security; urgency=high"
			for _, tc := range []struct{ holds, heading string }{
				{"widget 0 ", ""}, // the entry's first chunk writes it
				{"widget 30 ", release},
				{"widget 45 ", release},
				{"Drop the old spool", ""}, // writes its own release line
			} {
				c := chunkWith(t, r, tc.holds)
				if c.Heading != tc.heading {
					t.Errorf("chunk from line %d holding %q: heading %q, want %q", c.StartLine, tc.holds, c.Heading, tc.heading)
				}
			}
		case "NOTES":
			for _, c := range r.Chunks {
				if c.Heading != "" {
					t.Errorf("NOTES chunk headed %q, want none: not a changelog", c.Heading)
				}
			}
		}
	}
	if !stored["changelog.Debian"] || !stored["NOTES"] {
		t.Errorf("stored %v, want changelog.Debian and NOTES", stored)
	}
}
