package nodes

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/graphrag/graphrag"
)

// packageDocHit is a package's doc comment as ingest stores it: the
// comment and the package clause, kind package.
func packageDocHit(path, text string) graphrag.Hit {
	h := fileHit(path, "go", text)
	h.Chunk.Kind, h.Chunk.Symbol = kindPackage, "tally"
	return h
}

// TestPackageDocIsProse: a package's doc comment is prose with indented
// examples, not a block of code. A lead-in is quoted with the example it
// introduces, shown as code; a paragraph is quoted as prose, without its
// comment markers or the package clause.
func TestPackageDocIsProse(t *testing.T) {
	t.Run("a lead-in with its example", func(t *testing.T) {
		h := packageDocHit("/src/tally/doc.go", "/*\nPackage tally counts the words of a stream.\n\n"+
			"To count the words of standard input, wrap it in a Counter:\n\n"+
			"\tc := tally.New(os.Stdin)\n\tn, err := c.Count()\n\n"+
			"Counting stops at the first read error, which Count returns.\n*/\npackage tally")
		a := extractive("how do I count the words of standard input with tally", []graphrag.Hit{h}, 3)
		want := "wrap it in a Counter:\n```\nc := tally.New(os.Stdin)\nn, err := c.Count()\n```"
		if !strings.Contains(a.Text, want) {
			t.Errorf("answer:\n%s\nwant the lead-in with its example:\n%s", a.Text, want)
		}
		for _, not := range []string{"/*", "*/", "package tally"} {
			if strings.Contains(a.Text, not) {
				t.Errorf("answer quotes %q:\n%s", not, a.Text)
			}
		}
	})
	t.Run("a paragraph of a // doc", func(t *testing.T) {
		h := packageDocHit("/src/tally/tally.go", "// Package tally counts the words of a stream.\n//\n"+
			"// A Counter skips punctuation. Numbers count as words;\n// so do single letters.\n//\n"+
			"// The zero Counter is ready to use.\npackage tally")
		a := extractive("does tally count numbers as words", []graphrag.Hit{h}, 3)
		if !strings.Contains(a.Text, "A Counter skips punctuation. Numbers count as words; so do single letters.") {
			t.Errorf("answer:\n%s\nwant the paragraph on numbers, as prose", a.Text)
		}
		if strings.Contains(a.Text, "//") || strings.Contains(a.Text, "```") {
			t.Errorf("answer quotes the doc as code:\n%s", a.Text)
		}
	})
	t.Run("a file's header comment", func(t *testing.T) {
		h := fileHit("/src/tally/merge.go", "go", "// Merging counts (MC).\n//\n"+
			"// Two Counters merge by summing their tallies word by word; a word\n// only one of them saw keeps its tally.")
		h.Chunk.Kind, h.Chunk.Symbol = kindComment, "tally"
		a := extractive("when tally merges two counters, does a word only one of them saw keep its tally", []graphrag.Hit{h}, 3)
		if !strings.Contains(a.Text, "a word only one of them saw keeps its tally.") {
			t.Errorf("answer:\n%s\nwant the header's sentence, as prose", a.Text)
		}
		if strings.Contains(a.Text, "//") || strings.Contains(a.Text, "```") {
			t.Errorf("answer quotes the comment as code:\n%s", a.Text)
		}
	})
}

// TestUnfinishedLeadIn: a sentence an example interrupts ("… is done
// with", the example, "which …") is one unit with the example, in a doc
// comment as in Markdown; a sentence that ends before a block is not
// joined with it.
func TestUnfinishedLeadIn(t *testing.T) {
	text := "Writing every count to a file is done with\n\n\tc.Log(f)\n\nwhich appends one line per call.\n\n" +
		"Counts are never reset.\n\n\tc.Total()\n"
	units := answerUnits(text)
	want := "Writing every count to a file is done with\n```\nc.Log(f)\n```\nwhich appends one line per call."
	if len(units) != 3 || units[0].text != want || !units[0].lead || units[1].text != "Counts are never reset." || !units[2].code {
		t.Errorf("units = %q\nwant %q, the sentence that ends apart, the last block", unitTexts(units), want)
	}
	h := packageDocHit("/src/tally/log.go", "// Package tally counts words.\n//\n// "+
		strings.ReplaceAll(strings.TrimSuffix(text, "\n"), "\n", "\n// ")+"\npackage tally")
	a := extractive("how do I write every count to a file with tally", []graphrag.Hit{h}, 3)
	if !strings.Contains(a.Text, "which appends one line per call") || !strings.Contains(a.Text, "```\nc.Log(f)\n```") {
		t.Errorf("answer:\n%s\nwant the sentence with its example", a.Text)
	}
}

// TestPackageDocCompletesDeclaration: the declaration a question names
// answers first; its package's doc adds what the question asks and the
// declaration's doc leaves out. Other code that only mentions a word of the
// question is still left out.
func TestPackageDocCompletesDeclaration(t *testing.T) {
	decl := fileHit("/src/tally/tally.go", "go", "// New returns a Counter that reads words from r.\n"+
		"func New(r io.Reader) *Counter {\n\treturn &Counter{r: bufio.NewReader(r)}\n}")
	decl.Chunk.Kind, decl.Chunk.Symbol = "func", "tally.New"
	pkg := packageDocHit("/src/tally/doc.go", "// Package tally counts the words of a stream.\n//\n"+
		"// A Counter never rewinds the reader it was made with; rewinding it is the caller's job.\npackage tally")
	other := fileHit("/src/tally/log.go", "go", "// Flush rewinds the log file.\nfunc (l *Log) Flush() error {\n\treturn l.f.Rewind()\n}")
	other.Chunk.Kind, other.Chunk.Symbol = "method", "tally.Log.Flush"
	a := extractive("does tally.New rewind the reader when it is done", []graphrag.Hit{decl, pkg, other}, 3)
	for _, want := range []string{"func New(r io.Reader) *Counter", "A Counter never rewinds the reader"} {
		if !strings.Contains(a.Text, want) {
			t.Errorf("answer lacks %q:\n%s", want, a.Text)
		}
	}
	if strings.Contains(a.Text, "Flush") {
		t.Errorf("answer quotes code that only mentions a word of the question:\n%s", a.Text)
	}
}

// TestDeclarationFallsBackToAConstant: the function a question names
// answers first, and a passage of another declaration follows when it
// holds a word of the question the function's own doc leaves out: the
// constant it falls back to when an option is left out. A passage that
// holds no such word is still left out.
func TestDeclarationFallsBackToAConstant(t *testing.T) {
	decl := fileHit("/src/tally/encode.go", "go", "// Encode writes the tally t to w. The options may be nil.\n"+
		"func Encode(w io.Writer, t *Tally, o *Options) error {\n\tif o == nil {\n\t\to = &Options{Level: DefaultLevel}\n\t}\n\treturn t.write(w, o)\n}")
	decl.Chunk.Kind, decl.Chunk.Symbol = "func", "tally.Encode"
	level := fileHit("/src/tally/options.go", "go", "// DefaultLevel is the compression level used when no options are given.\nconst DefaultLevel = 6")
	level.Chunk.Kind, level.Chunk.Symbol = "const", "tally.DefaultLevel"
	other := fileHit("/src/tally/decode.go", "go", "// Decode reads a tally written by Encode.\nfunc Decode(r io.Reader) (*Tally, error) {\n\treturn read(r)\n}")
	other.Chunk.Kind, other.Chunk.Symbol = "func", "tally.Decode"
	a := extractive("which compression level does tally.Encode use if I pass nil options", []graphrag.Hit{decl, other, level}, 3)
	for _, want := range []string{"func Encode(", "const DefaultLevel = 6"} {
		if !strings.Contains(a.Text, want) {
			t.Errorf("answer lacks %q:\n%s", want, a.Text)
		}
	}
	if strings.Contains(a.Text, "func Decode") {
		t.Errorf("answer quotes a declaration that holds no word of the question the answer lacks:\n%s", a.Text)
	}
}

// TestLongDocCutByParagraphs: a declaration too long to quote is cut by
// its doc's paragraphs: the first one, and the one that answers whole,
// even when its answer is further from its best line than a window of
// lines reaches.
func TestLongDocCutByParagraphs(t *testing.T) {
	doc := "// Mode sets how a Counter splits its input into words.\n// It returns the previous mode.\n//\n" +
		"// Counting ignores case, and a Counter may be reused after Reset.\n//\n" +
		"// ModeFields splits at white space only, the way a shell splits\n" +
		"// its arguments, so that an address like a.b@c.example counts as\n" +
		"// one word and a file name with dots counts as one word too.\n" +
		"// Numbers are words in this mode; so are lone symbols such as\n" +
		"// an ampersand or a dash standing between two spaces, and a\n" +
		"// line made of one dash counts as one word. Tabs, line feeds and\n" +
		"// carriage returns are white space like the space itself, and\n" +
		"// a run of them is one separator, never an empty word.\n" +
		"// Hyphenated compounds therefore count once.\n" +
		"func (c *Counter) Mode(m Mode) Mode {\n\told := c.mode\n\tc.mode = m\n\tc.reset()\n\treturn old\n}"
	a := declAnswer(t, "/src/tally/mode.go", "tally.Counter.Mode", "method", doc, "how does tally ModeFields split words")
	for _, want := range []string{"// Mode sets how a Counter splits", "// ModeFields splits at white space only", "// Hyphenated compounds therefore count once.", "func (c *Counter) Mode(m Mode) Mode {"} {
		if !strings.Contains(a, want) {
			t.Errorf("answer lacks %q:\n%s", want, a)
		}
	}
	if strings.Contains(a, "Counting ignores case") {
		t.Errorf("answer keeps a paragraph that does not answer:\n%s", a)
	}
}

// TestLongDocParagraphsScoredByWhatOnlyTheySay: of a long doc's
// paragraphs, the one holding the question's words that no other holds
// ("widened", "released", and its doc links' names) is quoted, not the one
// that repeats the words every paragraph says.
func TestLongDocParagraphsScoredByWhatOnlyTheySay(t *testing.T) {
	doc := "// A Gate guards a shared quill ledger.\n// Many holders or one seizer may have it.\n//\n" +
		"// In the ledger model, the n'th call to Seize comes before the\n" +
		"// m'th call to Seize for any n < m, and each Seize comes before\n" +
		"// the Hold calls after it; each Hold comes before the next Seize.\n" +
		"// A Hold that waits on a Seize waits on every Seize before it,\n" +
		"// and a Seize that waits on a Hold waits on every Hold before it.\n" +
		"// The Gate keeps no count of Hold calls beyond the Seize that\n" +
		"// ends them, and no count of Seize calls beyond the Hold that\n" +
		"// follows them; a Gate that is never held or seized is idle.\n" +
		"// The zero Gate is open to Hold and to Seize alike.\n//\n" +
		"// A [Gate.Hold] cannot be widened into a [Gate.Seize]: its holder\n" +
		"// must let it go first, and once released, call Seize anew.\n" +
		"// Nor can a seizer narrow its Seize in place.\n//\n" +
		"// A Gate must not be copied after first use.\n" +
		"type Gate struct {\n\tmu sync.Mutex\n\tn  int\n}"
	a := declAnswer(t, "/src/quill/gate.go", "quill.Gate", "type", doc, "Can a Hold on a quill Gate be widened to a Seize before it is released?")
	if !strings.Contains(a, "cannot be widened into a [Gate.Seize]") {
		t.Errorf("answer lacks the paragraph that answers:\n%s", a)
	}
}

// TestLongDocTableCutAroundItsRow: a table in a long doc comment, too
// long for the room left, is cut to the rows around the one asked about,
// not dropped whole.
func TestLongDocTableCutAroundItsRow(t *testing.T) {
	doc := "// A Token is one lexeme of a tally script.\n//\n" +
		"// Each kind of token carries a Go value. They are:\n//\n" +
		"//\tname       type     constant\n" +
		"//\tquill      uint8    KindQuill\n" +
		"//\tfrob       uint16   KindFrob\n" +
		"//\tzorp       uint24   KindZorp\n" +
		"//\tblip       uint32   KindBlip\n" +
		"//\tsnark      uint8    KindSnark\n" +
		"//\tglim       uint16   KindGlim\n" +
		"//\twump       uint24   KindWump\n" +
		"//\tmarl       uint32   KindMarl\n" +
		"//\ttove       uint8    KindTove\n" +
		"//\tborogove   uint16   KindBorogove\n" +
		"//\trath       uint24   KindRath\n" +
		"//\tjubjub     uint32   KindJubjub\n" +
		"//\tbander     uint8    KindBander\n" +
		"//\tslithy     uint16   KindSlithy\n" +
		"//\tmimsy      uint24   KindMimsy\n" +
		"//\n// Unknown lexemes are KindUnknown.\n" +
		"type Token struct {\n\tKind Kind\n\tVal  any\n}"
	a := declAnswer(t, "/src/tally/token.go", "tally.Token", "type", doc, "tally: what Go type does a wump token's value have")
	if !strings.Contains(a, "KindWump") || !strings.Contains(a, "// A Token is one lexeme") {
		t.Errorf("answer lacks the wump row or the doc's first line:\n%s", a)
	}
}

// TestExcludedNameIsNotAsked: a name the question puts out of it
// ("besides DeepRed") is not the declaration asked about: the block is quoted,
// not the excluded entry cut from it.
func TestExcludedNameIsNotAsked(t *testing.T) {
	h := fileHit("/src/paint/colour.go", "go", "// Primary colours.\nconst (\n\t// DeepRed is the colour of a stop sign.\n\tDeepRed = 0xff0000\n"+
		"\t// Green is the colour of grass.\n\tGreen = 0x00ff00\n\t// Blue is the colour of a clear sky.\n\tBlue = 0x0000ff\n)")
	h.Chunk.Kind, h.Chunk.Symbol = "const", "paint.DeepRed"
	a := extractive("which primary colours does paint define besides DeepRed", []graphrag.Hit{h}, 3)
	for _, want := range []string{"Green = 0x00ff00", "Blue = 0x0000ff"} {
		if !strings.Contains(a.Text, want) {
			t.Errorf("answer lacks %q:\n%s", want, a.Text)
		}
	}
	if got := askedIdents("is paint.DeepRed brighter than anything besides DeepRed"); len(got) != 1 || got[0].Name != "DeepRed" {
		t.Errorf("askedIdents = %v: a name also asked about outside the exclusion stays asked", got)
	}
}

// TestDeclarationTakesTheValueItRefersTo: code quoted for the name a
// question asks about takes along the constant it refers to by name, from
// another passage, with its value ("registers … on [DefaultRPCPath]"); or
// the variable whose doc links back to it ("ErrNotFat is returned from
// [OpenFat]"). A declaration neither refers to nor links back is left out.
func TestDeclarationTakesTheValueItRefersTo(t *testing.T) {
	handle := fileHit("/src/relay/server.go", "go", "// HandleHTTP registers an HTTP handler for relay messages to [DefaultServer]\n"+
		"// on [DefaultRelayPath].\nfunc HandleHTTP() {\n\tDefaultServer.HandleHTTP(DefaultRelayPath)\n}")
	handle.Chunk.Kind, handle.Chunk.Symbol = "func", "relay.HandleHTTP"
	paths := fileHit("/src/relay/paths.go", "go", "const (\n\t// Defaults used by the server\n\tDefaultRelayPath = \"/_relay_\"\n\tDefaultStatusPath = \"/debug/relay\"\n)")
	paths.Chunk.Kind, paths.Chunk.Symbol = "const", "relay.DefaultRelayPath"
	limits := fileHit("/src/relay/limits.go", "go", "// MaxMessage is the largest message a relay handler accepts.\nconst MaxMessage = 1 << 16")
	limits.Chunk.Kind, limits.Chunk.Symbol = "const", "relay.MaxMessage"
	a := extractive("which URL path does relay.HandleHTTP register its handler on", []graphrag.Hit{handle, limits, paths}, 3)
	if !strings.Contains(a.Text, `DefaultRelayPath = "/_relay_"`) {
		t.Errorf("answer lacks the path constant HandleHTTP refers to:\n%s", a.Text)
	}
	if strings.Contains(a.Text, "MaxMessage") {
		t.Errorf("answer quotes a constant HandleHTTP does not refer to:\n%s", a.Text)
	}

	open := fileHit("/src/fatbin/fat.go", "go", "// OpenFat opens the named file and prepares it for use as a universal binary.\n"+
		"func OpenFat(name string) (*FatFile, error) {\n\tf, err := os.Open(name)\n\tif err != nil {\n\t\treturn nil, err\n\t}\n\treturn NewFatFile(f)\n}")
	open.Chunk.Kind, open.Chunk.Symbol = "func", "fatbin.OpenFat"
	errs := fileHit("/src/fatbin/errors.go", "go", "// ErrNotFat is returned from [NewFatFile] or [OpenFat] when the file is not a\n// universal binary but may be a thin one.\nvar ErrNotFat = &FormatError{0, \"not a fat file\", nil}")
	errs.Chunk.Kind, errs.Chunk.Symbol = "var", "fatbin.ErrNotFat"
	a = extractive("fatbin.OpenFat fails on a thin binary, which error do I get", []graphrag.Hit{open, errs}, 3)
	if !strings.Contains(a.Text, "var ErrNotFat") {
		t.Errorf("answer lacks the error whose doc links to OpenFat:\n%s", a.Text)
	}
}

// A long struct is cut to the lines of the field the question names, not
// to the first lines that share its everyday words with it.
func TestCodeWindowFindsTheNamedField(t *testing.T) {
	var lines []string
	lines = append(lines, "type ZorpAttr struct {")
	for i := range 8 {
		lines = append(lines, fmt.Sprintf("\t// Opt%d sets how the child process starts when the parent process asks.", i), fmt.Sprintf("\tOpt%d bool", i))
	}
	lines = append(lines,
		"\t// Frobsig is the signal the child gets when its parent thread exits:",
		"\t// it is sent on thread exit, which may come before the process ends.",
		"\tFrobsig Signal",
		"\tOther int",
		"}")
	got := strings.Join(codeWindow(lines, stemSet("I set Frobsig but the child process got the signal whilst the parent process ran. Why?"), nil), "\n")
	if !strings.Contains(got, "sent on thread exit") {
		t.Errorf("window misses the named field's comment:\n%s", got)
	}
}

// A long function whose doc names it, asked about by its name and by what
// one line of its body does, is cut around that line: the name is quoted
// with the declaration whatever the window, and function words weigh
// nothing.
func TestCodeWindowLooksPastTheNameAsked(t *testing.T) {
	lines := []string{
		"// NewFrob returns the Frob implementation for the given Frob ID.",
		"//",
		"// Applications are encouraged to use the specific implementations instead,",
		"// unless the ID is only known at run time.",
		"func NewFrob(id uint16) (Frob, error) {",
		"\tswitch id {",
	}
	for i := 1; i <= 6; i++ {
		lines = append(lines, fmt.Sprintf("\tcase 0x000%d: // Zorp-%d", i, i), fmt.Sprintf("\t\treturn Zorp%d(), nil", i))
	}
	lines = append(lines, "\tcase 0xFFFF: // Wipe-only", "\t\treturn WipeOnly(), nil", "\tdefault:", "\t\treturn nil, fmt.Errorf(\"unknown Frob %04x\", id)", "\t}", "}")
	got := strings.Join(codeWindow(lines, stemSet("Which Frob ID does NewFrob map to the wipe-only mode?"), nil), "\n")
	if !strings.Contains(got, "0xFFFF") {
		t.Errorf("window misses the case the question asks about:\n%s", got)
	}
}

// A long function asked about by what its body does is cut around the
// body's line that does it, not the declaration's: the result's type
// ("error") is the question's word "error", which every function that
// can fail declares.
func TestCodeWindowLooksPastTheDeclaration(t *testing.T) {
	lines := []string{
		"// Spin implements the [Spinner] interface.",
		"func (q *Quill) Spin(turns int64, mode int) (int64, error) {",
		"\tq.last = -1",
		"\tvar at int64",
		"\tswitch mode {",
	}
	for i := 1; i <= 5; i++ {
		lines = append(lines, fmt.Sprintf("\tcase Mode%d:", i), fmt.Sprintf("\t\tat = q.pos*%d + turns", i))
	}
	lines = append(lines, "\tdefault:", "\t\treturn 0, errors.New(\"quill.Spin: bad mode\")", "\t}",
		"\tif at < 0 {", "\t\treturn 0, errors.New(\"quill.Spin: backwards past the spool\")", "\t}",
		"\tq.pos = at", "\treturn at, nil", "}")
	got := strings.Join(codeWindow(lines, stemSet("Quill Spin with a backwards turn count: what error do I get?"), nil), "\n")
	if !strings.Contains(got, "past the spool") {
		t.Errorf("window misses the body's line the question asks about:\n%s", got)
	}
}

// A long function asked about by a line of its body keeps its short doc
// comment whole: the doc says why, the window shows the line; a window
// of lines around the body's line opened in the doc and kept only its
// first line.
func TestCodeWindowKeepsAShortDocWhole(t *testing.T) {
	lines := []string{
		"// Wind winds the quill onto the spool.",
		"// Quills wider than 9 are refused: the spool's gate",
		"// is 9 frobs wide (see the zorp manual).",
		"// The spool is not locked here; the caller holds it.",
		"func (s *Spool) Wind(q *Quill) error {",
		"\tif s.closed {",
		"\t\treturn ErrClosed",
		"\t}",
	}
	for i := 1; i <= 4; i++ {
		lines = append(lines, fmt.Sprintf("\ts.turns[%d] = q.turn(%d)", i, i))
	}
	lines = append(lines, "\tif q.width > 9 {", "\t\treturn fmt.Errorf(\"spool: quill too wide: %d\", q.width)", "\t}",
		"\ts.quills = append(s.quills, q)", "\treturn nil", "}")
	got := strings.Join(codeWindow(lines, stemSet("Why does Spool.Wind reject a quill that is too wide?"), nil), "\n")
	for _, want := range []string{"is 9 frobs wide", "quill too wide", "func (s *Spool) Wind"} {
		if !strings.Contains(got, want) {
			t.Errorf("window misses %q:\n%s", want, got)
		}
	}
	if n := len(strings.Split(got, "\n")); n > maxCodeLines {
		t.Errorf("window of %d lines, over the cap of %d:\n%s", n, maxCodeLines, got)
	}
}

// declAnswer is the answer, one unit at most, that quotes a declaration
// of symbol (its kind, its doc and code in doc) from the file at path, for
// question; it fails t when the answer runs over the cap on quoted code
// (withinCodeCap).
func declAnswer(t *testing.T, path, symbol, kind, doc, question string) string {
	t.Helper()
	h := fileHit(path, "go", doc)
	h.Chunk.Symbol, h.Chunk.Kind = symbol, kind
	a := extractive(question, []graphrag.Hit{h}, 1)
	withinCodeCap(t, a.Text)
	return a.Text
}

// withinCodeCap fails t when an answer quoting a declaration runs over
// maxCodeLines: the cap, its fences, citation and "…" marks aside.
func withinCodeCap(t *testing.T, answer string) {
	t.Helper()
	if n := strings.Count(answer, "\n"); n > maxCodeLines+3 {
		t.Errorf("answer of %d lines, over the cap of %d:\n%s", n, maxCodeLines, answer)
	}
}

// TestAskedNounFoundAsItsVerb: a question asks in its own word ("how
// precise"), the method's doc answers in the noun made from it
// ("precision"): the declaration the question names is quoted, and the
// doc that holds the answer after it.
func TestAskedNounFoundAsItsVerb(t *testing.T) {
	typ := fileHit("/src/quill/clock.go", "go", "// Clock is a [Ticker] that counts the frobs of a zorp\n// and writes them to a log.\ntype Clock struct {\n\tn int\n}")
	typ.Chunk.Symbol, typ.Chunk.Kind = "quill.Clock", "type"
	method := fileHit("/src/quill/tick.go", "go", "// Tick records one frob.\n// The count is kept with microsecond precision.\nfunc (c *Clock) Tick() {\n\tc.n++\n}")
	method.Chunk.Symbol, method.Chunk.Kind = "quill.Clock.Tick", "method"
	a := extractive("quill Clock: how precise is its count?", []graphrag.Hit{typ, method}, 3)
	if !strings.Contains(a.Text, "microsecond precision") {
		t.Errorf("answer lacks the precision of the count:\n%s", a.Text)
	}
}

// Asked which name a const block gives a number, the window is around the
// entry that gives it, not around the block's doc, which shares more of
// the question's words.
func TestCodeWindowFindsTheValue(t *testing.T) {
	lines := []string{"// Zorp frobs name the kind of the following object.", "const ("}
	for i := 1; i <= 24; i++ {
		lines = append(lines, fmt.Sprintf("\tFrobKind%d = %d", i, i))
	}
	lines = append(lines, "\tFrobGeneral = 27", "\tFrobWide = 30", ")")
	got := strings.Join(codeWindow(lines, stemSet("Which zorp frob constant has the value 27?"), nil), "\n")
	if !strings.Contains(got, "FrobGeneral = 27") {
		t.Errorf("window misses the entry of the value asked about:\n%s", got)
	}
}

// TestAnnouncedExample: a sentence that announces the example after it
// ("The following example command …") is quoted with that example, though
// it ends in a full stop and a one-line example reads as prose; one that
// announces other things ("The following settings …") is not joined with
// the paragraph after it.
func TestAnnouncedExample(t *testing.T) {
	text := "EXAMPLES\n\nThe following example command renames the quill of a frob.\n\nRETUNE FROB my_frob ( quill = zint );\n\n" +
		"The following example command reloads the frob's spool without altering anything.\n\nRETUNE FROB my_frob ( nudge );\n\n" +
		"The following settings of zorpd matter here.\n\nSpool depth bounds how many frobs wait."
	got := unitTexts(answerUnits(text))
	want := []string{"EXAMPLES",
		"The following example command renames the quill of a frob.\nRETUNE FROB my_frob ( quill = zint );",
		"The following example command reloads the frob's spool without altering anything.\nRETUNE FROB my_frob ( nudge );",
		"The following settings of zorpd matter here.", "Spool depth bounds how many frobs wait."}
	if !slices.Equal(got, want) {
		t.Errorf("units = %q\nwant %q", got, want)
	}
	man := fileHit("/man/man7/RETUNE_FROB.7", "7", text)
	a := extractive("how can zorpd reload a frob's spool without altering any of it", []graphrag.Hit{man}, 3)
	if !strings.Contains(a.Text, "( nudge )") {
		t.Errorf("answer:\n%s\nwant the announced example", a.Text)
	}
}
