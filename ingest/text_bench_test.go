package ingest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphrag/graphrag/internal/text"
)

// Ingest's text hot paths: telling text from binary and decoding it, and
// cutting prose into chunks at sentences. Compare before and after a
// change with benchstat:
//
//	go test ./ingest -run '^$' -bench 'ChunkProse|DecodeText' -count 6

// benchProse is the Go memory model from $(go env GOROOT)/doc: real
// English prose with code and numbers.
func benchProse(b *testing.B) []byte {
	b.Helper()
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		b.Skipf("go env GOROOT: %v", err)
	}
	data, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(out)), "doc", "go_mem.html"))
	if err != nil {
		b.Skipf("no Go memory model to read: %v", err)
	}
	return data
}

func BenchmarkChunkProse(b *testing.B) {
	text := string(benchProse(b))
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		Chunk(text, DefaultChunkSize, DefaultChunkOverlap)
	}
}

func BenchmarkDecodeText(b *testing.B) {
	data := benchProse(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, ok := text.Decode(data); !ok {
			b.Fatal("not text")
		}
	}
}
