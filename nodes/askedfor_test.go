package nodes

import (
	"strings"
	"testing"

	"github.com/graphrag/graphrag"
)

// The answer quotes the element the question asks for (a flag, the
// default, the instruction), not the passage that only shares the
// subject's name. Fixtures in made-up packages and tools.
func TestAnswerQuotesTheAskedForElement(t *testing.T) {
	t.Run("a hyphenated word is matched by its parts joined in one word", func(t *testing.T) {
		pkg := fileHit("/src/gridprint/grid.go", "go", "// Package gridprint lays out rows of cells in aligned columns of text.\npackage gridprint\n")
		pkg.Chunk.Kind, pkg.Chunk.Symbol = kindPackage, "gridprint"
		printer := fileHit("/src/gridprint/grid.go", "go", "// A Printer writes cells in columns, aligned to the widest cell.\n// Cells are separated by tabs.\ntype Printer struct {\n\tflags uint\n}\n")
		printer.Chunk.Symbol = "gridprint.Printer"
		flags := fileHit("/src/gridprint/grid.go", "go", "// Options of a Printer.\nconst (\n\t// Pad cells on the left so their text ends at the column's edge.\n\t// Without it cells are padded on the right.\n\tJustifyRight uint = 1 << iota\n\n\t// Draw a line between columns.\n\tRuled\n)\n")
		flags.Chunk.Symbol = "gridprint.JustifyRight"
		q := "can gridprint right-justify the columns it prints"
		a := extractive(q, []graphrag.Hit{pkg, printer, flags}, 1)
		if !strings.Contains(a.Text, "JustifyRight") {
			t.Errorf("%q: the flag is not quoted:\n%s", q, a.Text)
		}
	})
	t.Run("a question that leaves something out is answered by the default", func(t *testing.T) {
		man := []graphrag.Hit{
			fileHit("/man/man1/mkvault.1", "1", "-o owner, --owner=owner\nNames the account that will own the new vault. The owner name is taken as written."),
			fileHit("/man/man1/mkvault.1", "1", "--seed-vault=name\nNames the vault whose keys are copied into the new vault."),
			fileHit("/man/man1/mkvault.1", "1", "vaultname\nWhat to call the vault being made; it must differ from every other one on the host. The default is the account you are logged in as."),
		}
		q := "what is the new vault named if I run mkvault without a name"
		a := extractive(q, man, 1)
		t.Log(a.Text)
		if !strings.Contains(a.Text, "the account you are logged in as") {
			t.Errorf("%q: the default is not quoted:\n%s", q, a.Text)
		}
	})
	t.Run("a how-to question is answered by the instruction with its verb", func(t *testing.T) {
		news := fileHit("/doc/tinyterm/NEWS.Debian", "", "tinyterm (2.1-1) unstable; urgency=low\n\n"+
			"  * The default terminal font has been switched to Iosevka for new\n    installs. Upgrades keep the font they had.\n"+
			"  * One can see which font the terminal uses with 'tinyterm --show-font'.\n"+
			"  * Switch it with 'tinyterm-setfont NAME'.\n\n"+
			" -- Ada Example <ada@example.org>  Mon, 01 Jan 2024 10:00:00 +0000\n")
		q := "how do I switch the font of the terminal on Debian"
		a := extractive(q, []graphrag.Hit{news}, 2)
		t.Log(a.Text)
		if !strings.Contains(a.Text, "tinyterm-setfont") {
			t.Errorf("%q: the instruction is not quoted:\n%s", q, a.Text)
		}
	})
}
