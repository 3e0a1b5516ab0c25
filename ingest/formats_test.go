package ingest

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func gz(t *testing.T, data []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	if _, err := w.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// burrowMan is a manual page in roff written for this test, in the style
// DocBook's man output has (font alternation on lines of their own,
// conditional blocks around examples).
const burrowMan = `.\" a comment that is not text
.TH "BURROW" "1" "2031" "burrow 1.0" "Burrow Manual"
.SH "NAME"
burrow \- dig and restore burrows
.SH "SYNOPSIS"
.HP \w'\fBburrow\fR\ 'u
\fBburrow\fR [\fIoption\fR...] \fIfield\fR
.SH "EXAMPLES"
.PP
To restore a burrow called
\fBmydb\fR
from a custom\-format dump:
.sp
.if n \{\
.RS 4
.\}
.nf
$ burrow \-\-restore \-d mydb dump\&.file
$ burrow \-\-check mydb
.fi
.if n \{\
.RE
.\}
.SS "Options"
.PP
\fB\-\-clean\fR
.RS 4
Remove the old burrow first\&.
.RE
.IP "\-\-jobs N" 4
Dig with N paws\&.
.TP
\fB\-\-depth\fR \fIM\fR
Dig M metres down\&.
`

// TestFormats: gzip is read transparently (a manual page inside it too),
// a gzip bomb is skipped as too large, Latin-1 and coloured logs are text,
// and other compressed files and archives are skipped with what they are.
func TestFormats(t *testing.T) {
	dir := t.TempDir()
	zeros := make([]byte, 2<<20)
	files := map[string][]byte{
		"NEWS.gz":          gz(t, []byte("Version 2.0\n\nThe badger release adds tunnels.\n")),
		"burrow.1.gz":      gz(t, []byte(burrowMan)),
		"bomb.txt.gz":      gz(t, zeros),
		"latin1.txt":       []byte("Le caf\xe9 cr\xe8me co\xfbte deux \x80 au march\xe9.\n"),
		"build.log":        []byte(strings.Repeat("\x1b[1;31mERROR\x1b[0m disk full on \x1b[32m/dev/sda1\x1b[0m\n", 20)),
		"notes.xz":         append([]byte("\xfd7zXZ\x00\x00\x04"), bytes.Repeat([]byte{0x91, 0x12}, 40)...),
		"bundle.zip":       append([]byte("PK\x03\x04\x14\x00"), bytes.Repeat([]byte{0x91, 0x12}, 40)...),
		"site.tgz":         gz(t, append(append(make([]byte, 257), "ustar\x0000"...), make([]byte, 300)...)),
		"random.bin":       append([]byte{0, 1, 2, 0x91}, bytes.Repeat([]byte{0x00, 0xff}, 40)...),
		"changelog.Debian": []byte("badger (1.0-1) unstable; urgency=low\n\n  * Initial release.\n"),
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	st, sum := ingestDir(t, dir, Options{MaxFileSize: 1 << 20})
	reasons := map[string]string{}
	for _, p := range sum.Problems {
		reasons[filepath.Base(p.Path)] = p.Reason + " " + p.Detail
	}
	for name, want := range map[string]string{
		"bomb.txt.gz": ReasonTooLarge + " decompresses to over",
		"notes.xz":    ReasonCompressed + " xz",
		"bundle.zip":  ReasonArchive + " zip",
		"site.tgz":    ReasonArchive + " tar",
		"random.bin":  ReasonBinary,
	} {
		if !strings.HasPrefix(reasons[name], want) {
			t.Errorf("%s skipped as %q, want %q", name, reasons[name], want)
		}
	}
	if len(sum.Problems) != 5 {
		t.Errorf("problems %v, want the 5 above", sum.Problems)
	}
	news := st.byBase(t, "NEWS.gz")
	if news.Doc.Type != "txt" || !strings.Contains(news.Chunks[0].Text, "badger release adds tunnels") {
		t.Errorf("NEWS.gz: type %q chunks %+v", news.Doc.Type, news.Chunks)
	}
	if c := st.byBase(t, "latin1.txt").Chunks[0]; c.Text != "Le café crème coûte deux € au marché." {
		t.Errorf("latin1.txt = %q", c.Text)
	}
	if c := st.byBase(t, "build.log").Chunks[0]; !strings.HasPrefix(c.Text, "ERROR disk full on /dev/sda1\nERROR") {
		t.Errorf("build.log = %q", c.Text[:min(60, len(c.Text))])
	}
	man := st.byBase(t, "burrow.1.gz")
	if man.Doc.Type != "man" || man.Doc.Title != "burrow - dig and restore burrows" {
		t.Errorf("man page: type %q title %q", man.Doc.Type, man.Doc.Title)
	}
	ex := chunkWith(t, man, "$ burrow --restore")
	if ex.Heading != "EXAMPLES" || ex.StartLine != 8 || ex.EndLine < 19 {
		t.Errorf("example chunk: heading %q lines %d-%d, want EXAMPLES from line 8", ex.Heading, ex.StartLine, ex.EndLine)
	}
	// The two no-fill lines are indented as code (indentCode).
	want := "To restore a burrow called mydb from a custom-format dump:\n\n    $ burrow --restore -d mydb dump.file\n    $ burrow --check mydb"
	if !strings.Contains(ex.Text, want) {
		t.Errorf("example chunk = %q, want it to hold %q", ex.Text, want)
	}
	if opt := chunkWith(t, man, "Remove the old burrow first."); opt.Heading != "EXAMPLES > Options > --clean" || !strings.Contains(opt.Text, "--clean\nRemove the old burrow first.") {
		t.Errorf("option chunk: heading %q text %q, want the term on a line above its indented description, a section of its own", opt.Heading, opt.Text)
	}
	if depth := chunkWith(t, man, "--depth M"); !strings.Contains(depth.Text, "--depth M\nDig M metres down.") {
		t.Errorf(".TP tag: %q, want the tag on a line of its own above its description", depth.Text)
	}
	if jobs := chunkWith(t, man, "--jobs N"); !strings.Contains(jobs.Text, "--jobs N\nDig with N paws.") {
		t.Errorf(".IP tag: %q, want the tag without its indent on a line of its own", jobs.Text)
	}
	for _, c := range man.Chunks {
		if strings.ContainsAny(c.Text, `\`) || strings.Contains(c.Text, ".RS") {
			t.Errorf("roff left in the text: %q", c.Text)
		}
	}
}
