package ingest_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/graphrag/graphrag/ingest"
)

func openCaptions(t *testing.T, path string) *ingest.CaptionFile {
	t.Helper()
	c, err := ingest.OpenCaptionFile(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func TestCaptionFile(t *testing.T) {
	t.Run("survives a reopen", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "captions.jsonl")
		c := openCaptions(t, path)
		if _, ok := c.Get("k1"); ok {
			t.Fatal("a new cache has a caption")
		}
		for k, v := range map[string]string{"k1": "A cat on a mat.", "k2": "A \"quoted\"\nline\u2028 and ünïcode.", "k1b": "x"} {
			if err := c.Put(k, v); err != nil {
				t.Fatal(err)
			}
		}
		if err := c.Put("k1", "A dog on a mat."); err != nil { // the last one wins
			t.Fatal(err)
		}
		c.Close()
		if err := c.Put("k3", "after close"); err == nil {
			t.Error("Put after Close succeeded")
		}
		c = openCaptions(t, path)
		if v, _ := c.Get("k1"); v != "A dog on a mat." {
			t.Errorf("k1 = %q after reopen", v)
		}
		if v, _ := c.Get("k2"); v != "A \"quoted\"\nline\u2028 and ünïcode." {
			t.Errorf("k2 = %q after reopen", v)
		}
		if c.Len() != 3 || c.Skipped() != 0 {
			t.Errorf("len %d, skipped %d; want 3, 0", c.Len(), c.Skipped())
		}
	})

	t.Run("a torn last line", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "captions.jsonl")
		whole := `{"key":"a","caption":"An apple."}` + "\n" + `{"key":"b","caption":"A banana."}` + "\n"
		if err := os.WriteFile(path, []byte(whole+`{"key":"c","capt`), 0o600); err != nil {
			t.Fatal(err)
		}
		c := openCaptions(t, path)
		if c.Len() != 2 || c.Skipped() != 1 {
			t.Fatalf("len %d, skipped %d; want 2 and 1", c.Len(), c.Skipped())
		}
		if err := c.Put("c", "A cherry."); err != nil {
			t.Fatal(err)
		}
		c.Close()
		c = openCaptions(t, path)
		for k, want := range map[string]string{"a": "An apple.", "b": "A banana.", "c": "A cherry."} {
			if v, ok := c.Get(k); !ok || v != want {
				t.Errorf("%s = %q, %v; want %q", k, v, ok, want)
			}
		}
		if c.Skipped() != 1 {
			t.Errorf("skipped %d lines, want only the torn one", c.Skipped())
		}
	})

	t.Run("garbage lines are skipped", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "captions.jsonl")
		data := "not json\n\n{\"caption\":\"no key\"}\n{\"key\":\"k\",\"caption\":\"ok\"}\n\x00\x01\n"
		if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
		c := openCaptions(t, path)
		if v, ok := c.Get("k"); !ok || v != "ok" || c.Skipped() != 3 {
			t.Errorf("k = %q, %v; skipped %d; want ok and 3 skipped", v, ok, c.Skipped())
		}
	})

	t.Run("concurrent puts", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "captions.jsonl")
		c := openCaptions(t, path)
		var wg sync.WaitGroup
		for w := range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range 50 {
					k := fmt.Sprintf("w%d-%d", w, i)
					if err := c.Put(k, strings.Repeat("caption "+k+" ", 20)); err != nil {
						t.Error(err)
						return
					}
					c.Get(fmt.Sprintf("w%d-%d", (w+1)%8, i))
				}
			}()
		}
		wg.Wait()
		c.Close()
		c = openCaptions(t, path)
		if c.Len() != 400 || c.Skipped() != 0 {
			t.Errorf("len %d, skipped %d after 400 concurrent puts; want 400 and 0", c.Len(), c.Skipped())
		}
		if v, _ := c.Get("w3-17"); v != strings.Repeat("caption w3-17 ", 20) {
			t.Errorf("w3-17 = %q", v)
		}
	})

	t.Run("a directory that does not exist", func(t *testing.T) {
		if _, err := ingest.OpenCaptionFile(filepath.Join(t.TempDir(), "no", "such", "captions.jsonl")); err == nil {
			t.Error("opened a cache in a missing directory")
		}
	})
}

func TestCaptionFileWithIngest(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	write(t, filepath.Join(dir, "a.png"), []byte("img:a sailing boat"))
	path := filepath.Join(t.TempDir(), "captions.jsonl")
	fc := &fakeCaptioner{}
	c := openCaptions(t, path)
	if _, err := ingest.New(openStore(t, nil), ingest.Options{Captioner: fc, CaptionCache: c}).Run(ctx, dir); err != nil {
		t.Fatal(err)
	}
	c.Close()
	c = openCaptions(t, path) // as the next process would
	sum, err := ingest.New(openStore(t, nil), ingest.Options{Captioner: fc, CaptionCache: c}).Run(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	if fc.Calls() != 1 || sum.CaptionsCached != 1 {
		t.Errorf("%d calls, %d cached; want the second store to use the file's caption", fc.Calls(), sum.CaptionsCached)
	}
}
