package nodes

import "testing"

func TestAsksForFilesNotDeniedOrInADocument(t *testing.T) {
	for q, want := range map[string]bool{
		"which files mention zorp": true,
		"list all my notes":        true,
		"zorp/build mode that finds the frob directory without reading any files in it": false,
		"quux 0.3 renamed which directory in frob.theme?":                               false,
		"which folder has my frob invoices":                                             true,
	} {
		if got := asksForFiles(q); got != want {
			t.Errorf("asksForFiles(%q) = %v, want %v", q, got, want)
		}
	}
}
