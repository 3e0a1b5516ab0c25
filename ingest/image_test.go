package ingest_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/ingest"
)

// fakeCaptioner describes an image by its content ("img:<words>" becomes
// "A picture of <words>."), counts calls and the most run at once, and
// fails on content that starts with a failure mark.
type fakeCaptioner struct {
	name  string
	delay time.Duration
	block bool // wait for the context to end

	mu        sync.Mutex
	calls     int
	running   int
	maxAtOnce int
	started   chan struct{}
}

var (
	errFakeBadImage = errors.New("fake: image unreadable")
	errFakeDown     = errors.New("fake: server unreachable")
	errFakeServer   = errors.New("fake: server error 500")
)

func (f *fakeCaptioner) Name() string {
	if f.name == "" {
		return "fake-vision/v1"
	}
	return f.name
}

func (f *fakeCaptioner) Caption(ctx context.Context, name string, data []byte) (string, error) {
	f.mu.Lock()
	f.calls++
	f.running++
	f.maxAtOnce = max(f.maxAtOnce, f.running)
	started := f.started
	f.mu.Unlock()
	defer func() { f.mu.Lock(); f.running--; f.mu.Unlock() }()
	if started != nil {
		select {
		case started <- struct{}{}:
		default:
		}
	}
	if f.block {
		<-ctx.Done()
		return "", ctx.Err()
	}
	if f.delay > 0 {
		select {
		case <-time.After(f.delay):
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}
	s := string(data)
	switch {
	case strings.HasPrefix(s, "bad:"):
		return "", errFakeBadImage
	case strings.HasPrefix(s, "down:"):
		return "", errFakeDown
	case strings.HasPrefix(s, "fail:"):
		return "", errFakeServer
	case strings.HasPrefix(s, "img:"):
		return "A picture of " + strings.TrimPrefix(s, "img:") + ".", nil
	}
	return "", errFakeBadImage
}

func (f *fakeCaptioner) Calls() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls
}

func classifyFake(err error) ingest.CaptionFailure {
	switch {
	case errors.Is(err, errFakeBadImage):
		return ingest.CaptionBadImage
	case errors.Is(err, errFakeDown):
		return ingest.CaptionUnavailable
	}
	return ingest.CaptionFailed
}

// memCache is a CaptionCache in memory.
type memCache struct {
	mu sync.Mutex
	m  map[string]string
}

func (c *memCache) Get(k string) (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	s, ok := c.m[k]
	return s, ok
}

func (c *memCache) Put(k, v string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string]string{}
	}
	c.m[k] = v
	return nil
}

func search(t *testing.T, st interface {
	Search(context.Context, graphrag.Query) (graphrag.SearchResult, error)
}, q string) []graphrag.Hit {
	t.Helper()
	res, err := st.Search(context.Background(), graphrag.Query{Text: q, K: 5})
	if err != nil {
		t.Fatalf("search %q: %v", q, err)
	}
	return res.Hits
}

func TestImagesCaptioned(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	write(t, filepath.Join(dir, "holiday/beach-2024.png"), []byte("img:a lighthouse on a cliff at sunset"))
	write(t, filepath.Join(dir, "scan.JPEG"), []byte("img:a handwritten shopping list"))
	write(t, filepath.Join(dir, "notes.txt"), []byte("Remember to buy milk."))
	cache := &memCache{}
	fc := &fakeCaptioner{}
	st := openStore(t, nil)
	var progressCaptioned int
	in := ingest.New(st, ingest.Options{Captioner: fc, CaptionCache: cache, ClassifyCaptionError: classifyFake,
		Progress: func(p ingest.Progress) { progressCaptioned = p.Captioned }})

	sum, err := in.Run(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Added != 3 || sum.Captioned != 2 || sum.CaptionsCached != 0 || len(sum.Skipped) != 0 {
		t.Fatalf("summary %+v, want 3 added of which 2 captioned", sum)
	}
	if progressCaptioned != 2 {
		t.Errorf("last progress says %d captioned, want 2", progressCaptioned)
	}
	if fc.Calls() != 2 {
		t.Errorf("%d caption calls, want 2", fc.Calls())
	}

	t.Run("searchable by caption and by name", func(t *testing.T) {
		for q, want := range map[string]string{"lighthouse": "beach-2024.png", "beach": "beach-2024.png", "shopping list": "scan.JPEG"} {
			hits := search(t, st, q)
			if len(hits) == 0 || hits[0].Source.Title != want {
				t.Errorf("search %q: hits %v, want %s first", q, hits, want)
				continue
			}
			if h := hits[0]; !strings.Contains(h.Chunk.Text, "A picture of") || h.Source.Type != strings.ToLower(strings.TrimPrefix(filepath.Ext(want), ".")) {
				t.Errorf("search %q: chunk %q type %q", q, h.Chunk.Text, h.Source.Type)
			}
		}
	})

	t.Run("re-ingest makes no call", func(t *testing.T) {
		before := fc.Calls()
		sum, err := in.Run(ctx, dir)
		if err != nil {
			t.Fatal(err)
		}
		if sum.Unchanged != 3 || fc.Calls() != before {
			t.Errorf("unchanged %d, %d new calls; want 3 and 0", sum.Unchanged, fc.Calls()-before)
		}
	})

	t.Run("moved and copied images hit the cache", func(t *testing.T) {
		before := fc.Calls()
		if err := os.Rename(filepath.Join(dir, "scan.JPEG"), filepath.Join(dir, "moved.jpg")); err != nil {
			t.Fatal(err)
		}
		data, _ := os.ReadFile(filepath.Join(dir, "holiday/beach-2024.png"))
		write(t, filepath.Join(dir, "copy.png"), data)
		sum, err := in.Run(ctx, dir)
		if err != nil {
			t.Fatal(err)
		}
		if fc.Calls() != before || sum.CaptionsCached != 2 || sum.Added != 2 || sum.Deleted != 1 {
			t.Errorf("%d new calls, summary %+v; want 0 calls, 2 cached, 2 added, 1 deleted", fc.Calls()-before, sum)
		}
		if hits := search(t, st, "lighthouse"); len(hits) < 2 {
			t.Errorf("the copy is not found by its caption: %v", hits)
		}
	})

	t.Run("a new store reuses the cache", func(t *testing.T) {
		before := fc.Calls()
		sum, err := ingest.New(openStore(t, nil), ingest.Options{Captioner: fc, CaptionCache: cache}).Run(ctx, dir)
		if err != nil {
			t.Fatal(err)
		}
		if fc.Calls() != before || sum.Captioned != 0 || sum.CaptionsCached != 3 {
			t.Errorf("%d new calls, summary %+v; want 0 calls and 3 cached", fc.Calls()-before, sum)
		}
	})

	t.Run("another captioner captions again", func(t *testing.T) {
		other := &fakeCaptioner{name: "fake-vision/v2"}
		sum, err := ingest.New(openStore(t, nil), ingest.Options{Captioner: other, CaptionCache: cache}).Run(ctx, dir)
		if err != nil {
			t.Fatal(err)
		}
		// Three images, two of them the same content: two calls.
		if other.Calls() != 2 || sum.Captioned != 2 || sum.CaptionsCached != 1 {
			t.Errorf("%d calls, summary %+v; want 2 calls, 2 captioned and 1 cached", other.Calls(), sum)
		}
	})
}

func TestImageCopiesInOneRunCaptionedOnce(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"a.png", "b.png", "c/d.png", "e.gif"} {
		write(t, filepath.Join(dir, n), []byte("img:a red bicycle"))
	}
	fc := &fakeCaptioner{delay: 20 * time.Millisecond}
	sum, err := ingest.New(openStore(t, nil), ingest.Options{Captioner: fc, CaptionWorkers: 4}).Run(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if fc.Calls() != 1 || sum.Added != 4 || sum.Captioned != 1 || sum.CaptionsCached != 3 {
		t.Errorf("%d calls, summary %+v; want 1 call for 4 copies", fc.Calls(), sum)
	}
}

func TestImagesWithoutCaptioner(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "a.png"), []byte("img:one"))
	write(t, filepath.Join(dir, "b.webp"), []byte("img:two"))
	write(t, filepath.Join(dir, "c.tif"), []byte("img:three"))
	write(t, filepath.Join(dir, "notes.md"), []byte("# Notes\n\nSome text."))
	sum, err := ingest.New(openStore(t, nil), ingest.Options{}).Run(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Added != 1 || sum.Skipped[ingest.ReasonNoCaptioner] != 3 || len(sum.Skipped) != 1 {
		t.Errorf("summary %+v; want 1 added and 3 skipped under %q", sum, ingest.ReasonNoCaptioner)
	}
}

func TestImageCaptionFailures(t *testing.T) {
	cases := []struct {
		name     string
		images   map[string]string // name -> content, walked in name order
		classify func(error) ingest.CaptionFailure
		workers  int
		captions int
		skipped  map[string]int
		calls    int
	}{
		{
			name:     "bad images are skipped one by one",
			images:   map[string]string{"1.png": "bad:x", "2.png": "bad:y", "3.png": "bad:z", "4.png": "bad:w", "5.png": "img:a cat"},
			classify: classifyFake,
			captions: 1,
			skipped:  map[string]int{ingest.ReasonBadImage: 4},
			calls:    5,
		},
		{
			name:     "failures in a row stop captioning",
			images:   map[string]string{"1.png": "fail:a", "2.png": "fail:b", "3.png": "fail:c", "4.png": "img:a dog", "5.png": "img:a fish"},
			classify: classifyFake,
			workers:  1,
			skipped:  map[string]int{ingest.ReasonCaptionFailed: 3, ingest.ReasonCaptionsStopped: 2},
			calls:    3,
		},
		{
			name:     "a success resets the count",
			images:   map[string]string{"1.png": "fail:a", "2.png": "fail:b", "3.png": "img:a dog", "4.png": "fail:c", "5.png": "fail:d"},
			classify: classifyFake,
			workers:  1,
			captions: 1,
			skipped:  map[string]int{ingest.ReasonCaptionFailed: 4},
			calls:    5,
		},
		{
			name:     "an unavailable server stops captioning at once",
			images:   map[string]string{"1.png": "down:a", "2.png": "img:a dog", "3.png": "img:a fish"},
			classify: classifyFake,
			workers:  1,
			skipped:  map[string]int{ingest.ReasonCaptionFailed: 1, ingest.ReasonCaptionsStopped: 2},
			calls:    1,
		},
		{
			name:    "without a classifier every error counts",
			images:  map[string]string{"1.png": "bad:a", "2.png": "bad:b", "3.png": "bad:c", "4.png": "img:a dog"},
			workers: 1,
			skipped: map[string]int{ingest.ReasonCaptionFailed: 3, ingest.ReasonCaptionsStopped: 1},
			calls:   3,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for n, c := range tc.images {
				write(t, filepath.Join(dir, n), []byte(c))
			}
			write(t, filepath.Join(dir, "z-notes.txt"), []byte("The text file is ingested whatever the images do."))
			fc := &fakeCaptioner{}
			sum, err := ingest.New(openStore(t, nil), ingest.Options{Captioner: fc, ClassifyCaptionError: tc.classify, CaptionWorkers: tc.workers}).Run(context.Background(), dir)
			if err != nil {
				t.Fatalf("a failed caption failed the run: %v", err)
			}
			if sum.Added != tc.captions+1 || sum.Captioned != tc.captions {
				t.Errorf("added %d, captioned %d; want %d and %d", sum.Added, sum.Captioned, tc.captions+1, tc.captions)
			}
			for r, n := range tc.skipped {
				if sum.Skipped[r] != n {
					t.Errorf("skipped %v; want %d under %q", sum.Skipped, n, r)
				}
			}
			if fc.Calls() != tc.calls {
				t.Errorf("%d caption calls, want %d", fc.Calls(), tc.calls)
			}
			for _, p := range sum.Problems {
				if p.Detail == "" {
					t.Errorf("problem %s has no detail saying why", p)
				}
			}
		})
	}
}

func TestImageChangedButNotCaptionedKeepsOldDocument(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "whiteboard.png")
	write(t, path, []byte("img:a whiteboard with a roadmap"))
	st := openStore(t, nil)
	if _, err := ingest.New(st, ingest.Options{Captioner: &fakeCaptioner{}}).Run(ctx, dir); err != nil {
		t.Fatal(err)
	}
	write(t, path, []byte("down:the server is gone"))
	sum, err := ingest.New(st, ingest.Options{Captioner: &fakeCaptioner{}, ClassifyCaptionError: classifyFake}).Run(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Deleted != 0 || len(search(t, st, "roadmap")) != 1 {
		t.Errorf("the old caption was deleted (summary %+v)", sum)
	}
	sum, err = ingest.New(st, ingest.Options{}).Run(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Deleted != 0 || sum.Skipped[ingest.ReasonNoCaptioner] != 1 || len(search(t, st, "roadmap")) != 1 {
		t.Errorf("without a captioner the old caption was deleted (summary %+v)", sum)
	}
}

func TestImageTooLargeIsNotRead(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "huge.png"), append([]byte("img:"), bytes.Repeat([]byte("x"), 2000)...))
	write(t, filepath.Join(dir, "small.png"), []byte("img:a tiny icon"))
	// A text file larger than the image limit is still read.
	write(t, filepath.Join(dir, "long.txt"), bytes.Repeat([]byte("words and more words. "), 200))
	fc := &fakeCaptioner{}
	sum, err := ingest.New(openStore(t, nil), ingest.Options{Captioner: fc, MaxImageSize: 1000}).Run(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Skipped[ingest.ReasonTooLarge] != 1 || sum.Added != 2 || fc.Calls() != 1 {
		t.Errorf("summary %+v, %d calls; want huge.png skipped as too large, 2 added, 1 call", sum, fc.Calls())
	}

	t.Run("a single file root", func(t *testing.T) {
		fc := &fakeCaptioner{}
		sum, err := ingest.New(openStore(t, nil), ingest.Options{Captioner: fc, MaxImageSize: 1000}).Run(context.Background(), filepath.Join(dir, "huge.png"))
		if err != nil {
			t.Fatal(err)
		}
		if sum.Skipped[ingest.ReasonTooLarge] != 1 || fc.Calls() != 0 {
			t.Errorf("summary %+v, %d calls", sum, fc.Calls())
		}
	})
}

func TestImageCaptionConcurrencyBounded(t *testing.T) {
	dir := t.TempDir()
	for i := range 12 {
		write(t, filepath.Join(dir, "img"+string(rune('a'+i))+".jpg"), []byte("img:picture number "+string(rune('a'+i))))
	}
	for _, workers := range []int{1, 2, 3} {
		t.Run("workers="+string(rune('0'+workers)), func(t *testing.T) {
			fc := &fakeCaptioner{delay: 5 * time.Millisecond}
			sum, err := ingest.New(openStore(t, nil), ingest.Options{Captioner: fc, CaptionWorkers: workers, Workers: 8}).Run(context.Background(), dir)
			if err != nil {
				t.Fatal(err)
			}
			if sum.Captioned != 12 {
				t.Fatalf("captioned %d, want 12", sum.Captioned)
			}
			if fc.maxAtOnce > workers {
				t.Errorf("%d captions at once, want at most %d", fc.maxAtOnce, workers)
			}
		})
	}
}

func TestImageCaptionCancelled(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"a.png", "b.png", "c.png"} {
		write(t, filepath.Join(dir, n), []byte("img:"+n))
	}
	write(t, filepath.Join(dir, "notes.txt"), []byte("some notes"))
	fc := &fakeCaptioner{block: true, started: make(chan struct{}, 1)}
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-fc.started; cancel() }()
	st := openStore(t, nil)
	done := make(chan struct{})
	var err error
	go func() {
		defer close(done)
		_, err = ingest.New(st, ingest.Options{Captioner: fc}).Run(ctx, dir)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return after its context was cancelled during a caption")
	}
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Run: %v, want context.Canceled", err)
	}
	if n := len(search(t, st, "png")); n != 0 {
		t.Errorf("%d images stored from a cancelled caption", n)
	}
}

func TestImageLoaderOverride(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "a.png"), []byte("img:a kite"))
	write(t, filepath.Join(dir, "b.svg.gif"), []byte("img:a balloon"))
	fc := &fakeCaptioner{}
	own := func(_ context.Context, _ string, data []byte) (ingest.Loaded, error) {
		return ingest.Loaded{Text: "own loader: " + string(data)}, nil
	}
	st := openStore(t, nil)
	sum, err := ingest.New(st, ingest.Options{Captioner: fc, Loaders: map[string]ingest.Loader{".PNG": own}}).Run(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Added != 2 || fc.Calls() != 1 || sum.Captioned != 1 {
		t.Errorf("summary %+v, %d calls; want the png loaded by its own loader and the gif captioned", sum, fc.Calls())
	}
	if hits := search(t, st, "kite"); len(hits) != 1 || !strings.HasPrefix(hits[0].Chunk.Text, "own loader") {
		t.Errorf("kite hits %v", hits)
	}
}
