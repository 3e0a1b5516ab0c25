package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// doctor finds a damaged store (flipped bytes that still open) and says how
// to rebuild it.
func TestDoctorFindsADamagedStore(t *testing.T) {
	c := newCLI(t)
	c.ok("ingest", sampleDir(t))
	if out := c.ok("doctor"); !strings.Contains(out, "ok   store") {
		t.Fatalf("doctor on an intact store:\n%s", out)
	}
	path := filepath.Join(c.env["XDG_DATA_HOME"], "graphrag", "graphrag.db")
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	fi, _ := f.Stat()
	// Garbage across every other page but the first (the schema), so the
	// file still opens: where in a page it lands depends on the layout,
	// so it lands in several places of each.
	for off := int64(2 * 4096); off+4096 <= fi.Size(); off += 2 * 4096 {
		for _, at := range []int64{100, 1000, 2000, 3000, 4000} {
			if _, err := f.WriteAt([]byte("\xde\xad\xbe\xef\xde\xad\xbe\xef\xde\xad\xbe\xef"), off+at); err != nil {
				t.Fatal(err)
			}
		}
	}
	f.Close()
	out, errs, code := c.run("", "doctor")
	if code == 0 || !strings.Contains(out, "FAIL store") || !strings.Contains(out, "rebuild") {
		t.Fatalf("doctor on a damaged store: exit %d\n%s%s", code, out, errs)
	}
}
