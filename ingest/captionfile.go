package ingest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
)

// CaptionFile is a CaptionCache kept in an append-only file of JSON lines,
// {"key": ..., "caption": ...}, read whole when it is opened. Appending
// one line per caption means a crash loses at most the line being written:
// a torn or unparseable line is skipped when the file is read, and the
// next caption starts on a line of its own. A key written twice keeps its
// last caption. It is safe for concurrent use within one process.
type CaptionFile struct {
	path string

	mu      sync.Mutex
	f       *os.File
	m       map[string]string
	newline bool // the file ends mid-line: start the next append with "\n"
	bad     int
}

var _ CaptionCache = (*CaptionFile)(nil)

type captionLine struct {
	Key     string `json:"key"`
	Caption string `json:"caption"`
}

// OpenCaptionFile opens the caption cache at path, creating the file (not
// its directory) if it does not exist.
func OpenCaptionFile(path string) (*CaptionFile, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open caption cache: %w", err)
	}
	c := &CaptionFile{path: path, f: f, m: map[string]string{}}
	if err := c.load(); err != nil {
		f.Close()
		return nil, fmt.Errorf("read caption cache %s: %w", path, err)
	}
	return c, nil
}

func (c *CaptionFile) load() error {
	r := bufio.NewReaderSize(c.f, 64<<10)
	var last byte = '\n'
	for {
		line, err := r.ReadBytes('\n')
		if len(line) > 0 {
			last = line[len(line)-1]
			var l captionLine
			if t := bytes.TrimSpace(line); len(t) > 0 {
				if json.Unmarshal(t, &l) != nil || l.Key == "" {
					c.bad++
				} else {
					c.m[l.Key] = l.Caption
				}
			}
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
	}
	c.newline = last != '\n'
	return nil
}

// Get returns the caption stored under key.
func (c *CaptionFile) Get(key string) (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	s, ok := c.m[key]
	return s, ok
}

// Put stores caption under key and appends it to the file in one write.
func (c *CaptionFile) Put(key, caption string) error {
	b, err := json.Marshal(captionLine{Key: key, Caption: caption})
	if err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.f == nil {
		return fmt.Errorf("caption cache %s: %w", c.path, os.ErrClosed)
	}
	if old, ok := c.m[key]; ok && old == caption {
		return nil
	}
	line := make([]byte, 0, len(b)+2)
	if c.newline {
		line = append(line, '\n')
	}
	line = append(append(line, b...), '\n')
	if _, err := c.f.Write(line); err != nil {
		return fmt.Errorf("write caption cache %s: %w", c.path, err)
	}
	c.newline = false
	c.m[key] = caption
	return nil
}

// Len is the number of captions held.
func (c *CaptionFile) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m)
}

// Skipped is the number of lines of the file that could not be read when
// it was opened (a line torn by a crash, say).
func (c *CaptionFile) Skipped() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.bad
}

// Close closes the file; Get still answers from memory, Put fails.
func (c *CaptionFile) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.f == nil {
		return nil
	}
	err := c.f.Close()
	c.f = nil
	return err
}
