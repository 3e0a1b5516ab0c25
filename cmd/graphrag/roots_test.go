package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Ingesting one file lets the filesystem tools see that file, not its
// directory: "list all my files" must not reveal the neighbours. A
// directory given to ingest is seen whole.
func TestFileToolsSeeOnlyWhatWasIngested(t *testing.T) {
	home := t.TempDir()
	files := map[string]string{
		"notes.txt":                      "Buy milk. Call the plumber about the boiler.",
		"passwords-backup.kdbx":          "\x03\xd9\xa2\x9a binary vault",
		"private/tax/2025-return.txt":    "Tax return 2025: refund due.",
		"private/tax/receipts/paint.txt": "Paint receipt.",
	}
	for name, text := range files {
		p := filepath.Join(home, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c := newCLI(t)
	c.ok("ingest", filepath.Join(home, "notes.txt"))
	out := c.ok("run", "list all my files")
	if !strings.Contains(out, "notes.txt") {
		t.Fatalf("the ingested file is not listed:\n%s", out)
	}
	for _, secret := range []string{"passwords-backup", "2025-return", "paint.txt", "private"} {
		if strings.Contains(out, secret) {
			t.Errorf("the file tools reveal %q after one file was ingested:\n%s", secret, out)
		}
	}

	c.ok("ingest", filepath.Join(home, "private", "tax"))
	out = c.ok("run", "list all my files")
	for _, want := range []string{"notes.txt", "2025-return.txt", "paint.txt"} {
		if !strings.Contains(out, want) {
			t.Errorf("after ingesting private/tax, %q is not listed:\n%s", want, out)
		}
	}
	if strings.Contains(out, "passwords-backup") {
		t.Errorf("the vault beside notes.txt is listed:\n%s", out)
	}
}
