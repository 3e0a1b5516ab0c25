package nodes

import (
	"strings"
	"testing"

	"github.com/graphrag/graphrag"
)

// "Does it do X automatically" asks whether X is on by default: the
// answer is the sentence that says whether it is, and how to turn it on,
// not the one that says what X is good for. Source code whose function is
// named like the question's verb ("func Sweep") is no answer to a
// question about the system written in prose.
func TestAutomaticallyAsksTheDefault(t *testing.T) {
	readme := fileHit("/doc/diskutils/README.Debian", "", "Periodic sweep for flash cards\n"+
		"------------------------------\n\n"+
		"sweep(8) is run on a mounted filesystem to release blocks the filesystem no\n"+
		"longer uses. This is helpful in particular for flash cards.\n\n"+
		"A service and a matching timer are shipped to run it every week,\n"+
		"but they are *not* enabled by default. To enable them, run as root:\n\n"+
		"    systemctl enable sweep.timer\n")
	code := fileHit("/src/cache/blocks.go", "go", "// Sweep frees the cache blocks of c.\n"+
		"func Sweep(c *Card) error {\n\treturn c.flush()\n}\n")
	code.Chunk.Kind, code.Chunk.Symbol = "func", "cache.Sweep"
	a := extractive("does Debian sweep my flash card automatically", []graphrag.Hit{readme, code}, 3)
	if !strings.Contains(a.Text, "not* enabled by default") || !strings.Contains(a.Text, "systemctl enable sweep.timer") {
		t.Errorf("answer does not say whether it runs by default, and how to turn it on:\n%s", a.Text)
	}
	if strings.Contains(a.Text, "func Sweep") {
		t.Errorf("answer quotes unrelated code:\n%s", a.Text)
	}
}

// Once a document's prose answers a question that names no identifier,
// source code sharing a word with it is not more of the answer.
func TestProseAnswerTakesNoUnrelatedCode(t *testing.T) {
	readme := fileHit("/doc/diskutils/README.Debian", "", "The weekly sweep timer frees the unused blocks of a flash card.\n")
	code := fileHit("/src/cache/blocks.go", "go", "// Sweep frees the unused blocks of a flash cache.\nfunc Sweep(c *Cache) error {\n\treturn c.flush()\n}\n")
	code.Chunk.Kind, code.Chunk.Symbol = "func", "cache.Sweep"
	s, cands := newSelection("does the sweep timer free the blocks of my flash card", []graphrag.Hit{readme, code})
	s.take(cands[0])
	s.pick(cands, 3)
	for _, c := range s.chosen {
		if c.source {
			t.Errorf("answer quotes code %q after the document's answer", c.text)
		}
	}
}
