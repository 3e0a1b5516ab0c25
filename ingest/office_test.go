package ingest

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"strings"
	"testing"
)

func zipOf(t *testing.T, files ...[2]string) []byte {
	t.Helper()
	var b bytes.Buffer
	w := zip.NewWriter(&b)
	for _, f := range files {
		fw, err := w.Create(f[0])
		if err != nil {
			t.Fatal(err)
		}
		if _, err := fw.Write([]byte(f[1])); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func sectionTexts(l Loaded) []string {
	var out []string
	for _, s := range l.Sections {
		out = append(out, s.Heading+": "+strings.ReplaceAll(s.Text, "\n", "|"))
	}
	return out
}

// TestOfficeFormats: docx, odt and epub are read from their XML, with
// headings as sections.
func TestOfficeFormats(t *testing.T) {
	docx := zipOf(t, [2]string{"[Content_Types].xml", "<Types/>"}, [2]string{"word/document.xml", `<?xml version="1.0"?>
<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>
<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:t>Badger report</w:t></w:r></w:p>
<w:p><w:r><w:t xml:space="preserve">Badgers dig </w:t></w:r><w:r><w:t>setts.</w:t></w:r></w:p>
<w:p><w:pPr><w:pStyle w:val="Heading2"/></w:pPr><w:r><w:t>Diet</w:t></w:r></w:p>
<w:p><w:r><w:t>Worms</w:t><w:tab/><w:t>mostly</w:t></w:r></w:p>
</w:body></w:document>`})
	odt := zipOf(t, [2]string{"mimetype", "application/vnd.oasis.opendocument.text"}, [2]string{"content.xml", `<?xml version="1.0"?>
<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"><office:body><office:text>
<text:h text:outline-level="1">Otter notes</text:h>
<text:p>Otters<text:s text:c="2"/>hold <text:span>hands</text:span>.</text:p>
<text:list><text:list-item><text:p>Rivers</text:p></text:list-item></text:list>
</office:text></office:body></office:document-content>`})
	epub := zipOf(t, [2]string{"mimetype", "application/epub+zip"},
		[2]string{"META-INF/container.xml", `<container><rootfiles><rootfile full-path="OEBPS/book.opf"/></rootfiles></container>`},
		[2]string{"OEBPS/book.opf", `<package xmlns:dc="http://purl.org/dc/elements/1.1/"><metadata><dc:title>The Heron Book</dc:title></metadata>
<manifest><item id="c2" href="ch2.xhtml"/><item id="c1" href="text/ch1.xhtml"/></manifest><spine><itemref idref="c1"/><itemref idref="c2"/></spine></package>`},
		[2]string{"OEBPS/text/ch1.xhtml", `<html><body><h1>Herons</h1><p>Herons wade.</p></body></html>`},
		[2]string{"OEBPS/ch2.xhtml", `<html><body><h1>Egrets</h1><p>Egrets are white.</p></body></html>`})
	tests := []struct {
		name  string
		load  Loader
		data  []byte
		title string
		want  []string
	}{
		{"docx", loadDocx, docx, "", []string{"Badger report: Badger report||Badgers dig setts.", "Badger report > Diet: Diet||Worms\tmostly"}},
		{"odt", loadODT, odt, "", []string{"Otter notes: Otter notes||Otters  hold hands.||Rivers"}},
		{"epub", loadEPUB, epub, "The Heron Book", []string{"Herons: Herons||Herons wade.", "Egrets: Egrets||Egrets are white."}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l, err := tc.load(context.Background(), "f."+tc.name, tc.data)
			if err != nil {
				t.Fatal(err)
			}
			if got := sectionTexts(l); l.Title != tc.title || strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("title %q sections\n%s\nwant %q\n%s", l.Title, strings.Join(got, "\n"), tc.title, strings.Join(tc.want, "\n"))
			}
		})
	}
	t.Run("bomb", func(t *testing.T) {
		big := zipOf(t, [2]string{"word/document.xml", "<w:document>" + strings.Repeat(" ", maxPartSize+10) + "</w:document>"})
		if _, err := loadDocx(context.Background(), "big.docx", big); !errors.Is(err, errContainerTooLarge) {
			t.Errorf("err = %v, want errContainerTooLarge", err)
		}
	})
	t.Run("not a zip", func(t *testing.T) {
		if _, err := loadODT(context.Background(), "x.odt", []byte("plain text")); err == nil {
			t.Error("no error for a file that is not a zip")
		}
	})
}

// A docx or odt whose XML is malformed is an error naming the format; a
// cancelled read stops with the context's error.
func TestOfficeXMLErrors(t *testing.T) {
	bad := map[string][]byte{
		"docx": zipOf(t, [2]string{"word/document.xml", `<w:document><w:body><w:p></w:body>`}),
		"odt":  zipOf(t, [2]string{"content.xml", `<office:text><text:p></office:text>`}),
	}
	loaders := map[string]Loader{"docx": loadDocx, "odt": loadODT}
	for format, data := range bad {
		t.Run(format, func(t *testing.T) {
			_, err := loaders[format](context.Background(), "f."+format, data)
			var syn *xml.SyntaxError
			if !errors.As(err, &syn) || !strings.HasPrefix(err.Error(), format+": ") {
				t.Errorf("malformed %s: %v, want a %q XML syntax error", format, err, format+": ")
			}
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			if _, err := loaders[format](ctx, "f."+format, data); !errors.Is(err, context.Canceled) {
				t.Errorf("cancelled %s: %v, want context.Canceled", format, err)
			}
		})
	}
}
