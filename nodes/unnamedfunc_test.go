package nodes

import (
	"strings"
	"testing"

	"github.com/graphrag/graphrag"
)

// Asked for a function it does not name, the answer is a function's
// declaration, not that of a type the question names: the type is what
// the function takes or returns.
func TestUnnamedFunctionOverNamedType(t *testing.T) {
	typ := codeHit("/src/zorp/zorp.go", 0, "zorp.Quux", "type",
		"// A Quux is an entry read from a zorp spool\n// (see [ReadSpool] and [Spool.Quuxes]).\ntype Quux interface {\n\t// Name gives the frob's label.\n\tName() string\n\t// Frob gives its frob.\n\tFrob() (Frob, error)\n}")
	fn := codeHit("/src/zorp/convert.go", 0, "zorp.FrobToQuux", "func",
		"// FrobToQuux returns a [Quux] that returns information from f.\n// If f is nil, FrobToQuux returns nil.\nfunc FrobToQuux(f Frob) Quux {\n\tif f == nil {\n\t\treturn nil\n\t}\n\treturn quuxOf{frob: f}\n}")
	for _, q := range []string{
		"I have a zorp.Frob and need a zorp.Quux. Which zorp function converts one into the other?",
		"I have a zorp.Frob but want a zorp.Quux. Is there a helper in zorp for that?",
	} {
		a := extractive(q, []graphrag.Hit{typ, fn}, 3)
		if !strings.Contains(a.Text, "func FrobToQuux") {
			t.Errorf("%s\nanswered %q; want FrobToQuux's declaration", q, a.Text)
		}
	}
}

// A named function's doc may name the function asked for: it stays the
// declaration that answers.
func TestNamedFunctionsDocNamesTheOneAsked(t *testing.T) {
	named := codeHit("/src/zorp/sort.go", 0, "zorp.SortStable", "func",
		"// SortStable sorts the frobs keeping equal ones in their order.\n//\n// Note: in many situations, the newer [frobs.SortStableFunc] function is more\n// ergonomic and runs faster.\nfunc SortStable(x any, less func(i, j int) bool) {\n\tstableSort(x, less)\n}")
	other := codeHit("/src/zorp/sort.go", 1, "zorp.Sort", "func",
		"// Sort sorts the frobs given the provided less function.\n// The sort is not guaranteed to be stable: for a stable sort, use [SortStable].\nfunc Sort(x any, less func(i, j int) bool) {\n\tquickSort(x, less)\n}")
	a := extractive("zorp.SortStable docs recommend which newer function as more ergonomic and faster?", []graphrag.Hit{other, named}, 3)
	if !strings.Contains(a.Text, "SortStableFunc") {
		t.Errorf("answered %q; want SortStable's doc, which names frobs.SortStableFunc", a.Text)
	}
}

func TestAsksUnnamedFunc(t *testing.T) {
	for q, want := range map[string]bool{
		"Which io/zorp function converts a Frob into a Quux?":           true,
		"Is there a helper in zorp for that?":                           true,
		"what method of zorp.Spool returns the frob count?":             true,
		"What does the zorp.Open function do when the spool is locked?": false,
		"what does Open return?":                                        false,
	} {
		if got := asksUnnamedFunc(q); got != want {
			t.Errorf("asksUnnamedFunc(%q) = %v, want %v", q, got, want)
		}
	}
}
