package nodes

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/graphrag/graphrag"
)

// A question asks for an error's or a panic's text in many words ("what
// error string", "what does it panic with", "the exact panic message");
// "which error type" asks for a name.
func TestAsksForAnErrorsText(t *testing.T) {
	for q, want := range map[string]bool{
		"What error string does zorp.Open return for a locked spool?":         true,
		"What's the exact panic message when the quill is sealed?":            true,
		"What does frob.Wind panic with when the turns are negative?":         true,
		"zorp.Open fails on a locked spool. What does the error message say?": true,
		"zorp.Open error when the spool is locked":                            true,
		"I get an error when I open the spool. How do I fix it?":              false,
		"Which error type tells me which frob failed?":                        false,
		"How does zorp.Open lock the spool?":                                  false,
		// What a program prints or logs.
		"Which message does zorpd log as long as the spool stays busy?":                       true,
		"zorpd prints a warning when the spool is full. What does that warning say?":          true,
		"zorpd fails saying the spool is gone. In which case does the zorp tool report that?": true,
		"How does zorpd log its messages to the journal?":                                     false,
	} {
		got := slices.ContainsFunc(askedKinds(q), func(k askKind) bool { return k.name == "message" })
		if got != want {
			t.Errorf("%q: asks for an error's text %v, want %v", q, got, want)
		}
	}
}

// Asked what error a long function returns, the answer quotes the window
// of its body around the line that makes the error the question
// describes, not around the doc that shares more of its words.
func TestErrorTextWindow(t *testing.T) {
	lines := []string{"// Wind turns the spool of q. The spool string of a sealed quill is returned as is.", "func (q *Quill) Wind(turns int) error {"}
	for i := 1; i <= 14; i++ {
		lines = append(lines, fmt.Sprintf("\tq.weigh(%d)", i))
	}
	lines = append(lines, "\tif q.sealed {", "\t\treturn fmt.Errorf(\"quill %d is sealed\", q.id)", "\t}")
	for i := 1; i <= 4; i++ {
		lines = append(lines, fmt.Sprintf("\tq.step(%d)", i))
	}
	lines = append(lines, "\treturn nil", "}")
	h := codeHit("/src/quill/wind.go", 0, "quill.Quill.Wind", "method", strings.Join(lines, "\n"))
	a := extractive("What error string does Quill.Wind return when the spool is sealed?", []graphrag.Hit{h}, 2)
	if !strings.Contains(a.Text, "is sealed\"") {
		t.Errorf("the answer misses the line that makes the error:\n%s", a.Text)
	}
}

// Asked what a program logs or prints, the answer quotes the window of
// the function's body around the line that logs or prints, as it does
// around an error's.
func TestPrintedTextWindow(t *testing.T) {
	for _, call := range []string{`log.Printf("# still waiting for spool %v ...", q.id)`, `print("quill: cannot wind until the spool is free\n")`} {
		lines := []string{"// Wait waits for the spool of q to come free, and reports how long it took.", "func (q *Quill) Wait() time.Duration {"}
		for i := 1; i <= 14; i++ {
			lines = append(lines, fmt.Sprintf("\tq.weigh(%d)", i))
		}
		lines = append(lines, "\tfor !q.free() {", "\t\t"+call, "\t}")
		for i := 1; i <= 4; i++ {
			lines = append(lines, fmt.Sprintf("\tq.step(%d)", i))
		}
		lines = append(lines, "\treturn q.took()", "}")
		h := codeHit("/src/quill/wait.go", 0, "quill.Quill.Wait", "method", strings.Join(lines, "\n"))
		a := extractive("Winding my quill is slow. Which message does Quill.Wait print until the spool is free?", []graphrag.Hit{h}, 2)
		if !strings.Contains(a.Text, call) {
			t.Errorf("the answer misses the line that prints %s:\n%s", call, a.Text)
		}
	}
}

// The function a question names may leave the error to another it calls,
// in another file: the answer quotes the declaration asked about and the
// line that makes the error, from the passage about what is asked; not
// an error of code about something else.
func TestErrorTextFromTheFunctionCalled(t *testing.T) {
	decl := codeHit("/src/zorp/zorp.go", 0, "zorp.Open", "func", "// Open opens the zorp at path.\nfunc Open(path string) (*Zorp, error) {\n\treturn open(path)\n}")
	other := codeHit("/src/zorp/frob.go", 0, "zorp.readFrob", "func", "func readFrob(b []byte) error {\n\tif len(b) < 4 {\n\t\treturn errors.New(\"zorp: bad magic\")\n\t}\n\treturn nil\n}")
	impl := codeHit("/src/zorp/zorp_unix.go", 0, "zorp.open", "func", "func open(path string) (*Zorp, error) {\n\tabs, err := realpath(path)\n\tif err != nil {\n\t\treturn nil, errors.New(\"zorp.Open(\" + path + \"): realpath failed\")\n\t}\n\treturn &Zorp{path: abs}, nil\n}")
	a := extractive("If zorp.Open can't resolve the absolute path I give it, what does the returned error say?", []graphrag.Hit{decl, other, impl}, 3)
	if !strings.Contains(a.Text, "realpath failed") {
		t.Errorf("the answer misses the error of the function Open calls:\n%s", a.Text)
	}
	if strings.Contains(a.Text, "bad magic") {
		t.Errorf("the answer quotes an error about something else:\n%s", a.Text)
	}
}

// A long function is cut into passages, and the error the question
// describes may be in another than the one that matched best: evaluate
// keeps the best passage of the kept source files that makes an error.
func TestErrorTextInTheRestOfTheFunction(t *testing.T) {
	first := codeHit("/src/zorp/open.go", 0, "zorp.Open", "func", "// Open opens the zorp spool at path and locks it.\nfunc Open(path string) (*Spool, error) {\n\ts := &Spool{path: path}\n\ts.weigh()\n\ts.count()")
	rest := codeHit("/src/zorp/open.go", 1, "zorp.Open", "func", "\tif s.held() {\n\t\treturn nil, errors.New(\"zorp: spool already held by another process\")\n\t}\n\treturn s, nil\n}")
	doc := fileHit("/src/zorp/doc.go", "go", "// Package zorp opens and locks spools.\npackage zorp")
	doc.Chunk.Kind = kindPackage
	p, _ := newPipeline(Deps{Searcher: newMemSearcher([]graphrag.Hit{first, rest, doc})}, DefaultOptions())
	s, err := p.evaluate(context.Background(), State{Query: "What error does zorp.Open return when the spool is locked?", Plan: graphrag.Plan{Route: graphrag.RouteVector},
		Hits: []graphrag.Hit{first, doc}, Budget: Budget{Retrieve: 2}})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(s.Kept, func(h graphrag.Hit) bool { return h.Chunk.ID == rest.Chunk.ID }) {
		t.Errorf("retrieval %s (%s): the rest of Open, which makes the error, is not kept", s.Retrieval, s.Measured)
	}
}

// Asked what a panic says, the declaration the question names answers
// first only when it makes one: an assignment to maxBits says nothing of
// the panic, and the unit that panics about maxBits answers, though it is
// of the same passage.
func TestErrorTextBeforeTheDeclaration(t *testing.T) {
	counts := codeHit("/src/zorp/huffman.go", 0, "zorp.huffmanEncoder.bitCounts", "method", "// bitCounts counts the literals of each bit size in the Huffman encoding.\n// maxBits must be less than 16.\nfunc (h *huffmanEncoder) bitCounts(list []literalNode, maxBits int32) []int32 {\n\tif maxBits >= maxBitsLimit {\n\t\tpanic(\"zorp: maxBits too large\")\n\t}\n\tn := int32(len(list))\n\n\tmaxBits = n - 1\n\treturn nil\n}")
	check := codeHit("/src/zorp/huffman.go", 2, "zorp.huffmanEncoder.generate", "method", "\t// Something is wrong if the top level is empty.\n\tif leafCounts[maxBits][maxBits] != n {\n\t\tpanic(\"leafCounts[maxBits][maxBits] != n\")\n\t}")
	a := extractive("zorp huffman encoder panic when maxBits >= 16", []graphrag.Hit{counts, check}, 3)
	if !strings.Contains(a.Text, "maxBits too large") {
		t.Errorf("the answer misses the panic about maxBits:\n%s", a.Text)
	}
}

// codeHit is a hit on the ordinal-th passage of a Go source file, of the
// declaration symbol of kind ("func", "method").
func codeHit(path string, ordinal int, symbol, kind, text string) graphrag.Hit {
	h := fileHit(path, "go", text)
	h.Chunk.ID, h.Chunk.Symbol, h.Chunk.Kind = graphrag.ChunkID(path, ordinal), symbol, kind
	return h
}

// A long method is cut into passages, and the panic a question asks about
// may close a later one: that passage is of the method asked about too,
// so it answers before the docs of other methods that speak of panics.
func TestPanicTextInALaterPassageOfTheMethod(t *testing.T) {
	var open strings.Builder
	open.WriteString("// Wind winds the spool of q by the given turns.\nfunc (q *Quill) Wind(turns int) {\n\tif q.spool.ready() {\n\t\tq.step(turns)\n\t\treturn\n\t}\n\tswitch q.kind {\n")
	for i := 1; i <= 12; i++ {
		fmt.Fprintf(&open, "\tcase kind%d:\n\t\tq.weigh(%d)\n", i, i)
	}
	first := codeHit("/src/quill/wind.go", 0, "quill.Quill.Wind", "method", open.String())
	rest := codeHit("/src/quill/wind.go", 1, "quill.Quill.Wind", "method", "\tcase kindLast:\n\t\tq.weigh(99)\n\t}\n\tpanic(\"quill: \" + q.name + \" cannot turn\")\n}")
	// Other methods that panic when a spool is iced.
	unwind := codeHit("/src/quill/unwind.go", 0, "quill.Quill.Unwind", "method", "// Unwind unwinds the spool of q. It panics when the spool is iced\n// over or empty.\nfunc (q *Quill) Unwind() {\n\tif q.spool.iced() {\n\t\tpanic(\"quill: iced spool\")\n\t}\n}")
	reset := codeHit("/src/quill/reset.go", 0, "quill.Quill.Reset", "method", "// Reset empties the spool of q. It panics when the spool is iced\n// over.\nfunc (q *Quill) Reset() {\n\tif q.spool.solid() {\n\t\tpanic(\"quill: solid spool\")\n\t}\n}")
	a := extractive("What does quill.Quill.Wind panic with when the spool is iced over?", []graphrag.Hit{unwind, reset, first, rest}, 2)
	if !strings.Contains(a.Text, "cannot turn") {
		t.Errorf("the answer misses the panic of Wind's later passage:\n%s", a.Text)
	}
}
