package evals

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Every gold file of every set lies inside one of the set's collections, so
// the store the benchmark builds can hold it. This is a check on the
// collection files alone: it needs nothing installed.
func TestDocsGoldFilesInsideCollections(t *testing.T) {
	for _, set := range DocsSets() {
		t.Run(set, func(t *testing.T) {
			cols, qs, err := LoadDocsSet(set)
			if err != nil {
				t.Fatal(err)
			}
			byName := map[string]Collection{}
			for _, c := range cols {
				byName[c.Name] = c
			}
			for _, q := range qs {
				if q.Abstain {
					continue // may name no collection: asked of them all
				}
				c, ok := byName[q.Collection]
				if !ok {
					t.Errorf("%s: no collection %q in the set", q.ID, q.Collection)
					continue
				}
				if !includes(c.Include, q.GoldFile) {
					t.Errorf("%s: gold file %s is not under any of %s's includes %v", q.ID, q.GoldFile, c.Name, c.Include)
				}
			}
		})
	}
}

// includes reports whether file (slash-separated, relative to a
// collection's root) is matched by one of the patterns, itself or through a
// directory the pattern names, as ResolveCollections and the ingest walk
// see it.
func includes(patterns []string, file string) bool {
	segs := strings.Split(file, "/")
	for _, p := range patterns {
		for i := 1; i <= len(segs); i++ {
			if ok, _ := path.Match(p, strings.Join(segs[:i], "/")); ok {
				return true
			}
		}
	}
	return false
}

// The test splits, written against the files as installed, and the id
// prefix each keeps.
var docsTestSplits = []struct{ set, prefix string }{
	{"test", "t"},
	{"test2", "t2"},
	{"test3", "t3"},
	{"test4", "t4"},
	{"test5", "t5"},
	{"test6", "t6"},
	{"test7", "t7"},
	{"test8", "t8"},
	{"test9", "t9"},
	{"test10", "t10"},
	{"test11", "t11"},
	{"test12", "t12"},
	{"test13", "t13"},
	{"test14", "t14"},
	{"test15", "t15"},
	{"test16", "t16"},
	{"test17", "t17"},
	{"test18", "t18"},
	{"test19", "t19"},
	{"test20", "t20"},
	{"test21", "t21"},
	{"test22", "t22"},
	{"test23", "t23"},
	{"test24", "t24"},
	{"test25", "t25"},
	{"test26", "t26"},
	{"test27", "t27"},
	{"test28", "t28"},
	{"test29", "t29"},
	{"test30", "t30"},
	{"test31", "t31"},
	{"test32", "t32"},
	{"test33", "t33"},
	{"test34", "t34"},
	{"test35", "t35"},
	{"test36", "t36"},
	{"test37", "t37"},
	{"test38", "t38"},
	{"test39", "t39"},
	{"test40", "t40"},
	{"test41", "t41"},
	{"test42", "t42"},
	{"test43", "t43"},
	{"test44", "t44"},
	{"test45", "t45"},
	{"test46", "t46"},
	{"test47", "t47"},
	{"test48", "t48"},
	{"tune1", "tn1"},
	{"tune2", "tn2"},
	{"tune3", "tn3"},
}

// The test splits' rows are written against the files as installed: every
// answerable row's gold string occurs verbatim in its gold file, read raw
// (a .gz decompressed), or for a man page in its text as man(1) renders
// it when its troff source splits or escapes it. Rows whose collection or
// file is not installed on this machine are skipped, and so are Debian
// changelog rows when the installed package is another version than the
// one the row was written against. The dev and held-out sets are not
// checked here: their man-page gold strings follow the rendered text, which
// a raw read does not reproduce.
func TestDocsTestSetGoldStringsInGoldFiles(t *testing.T) {
	for _, split := range docsTestSplits {
		t.Run(split.set, func(t *testing.T) {
			cols, qs, err := LoadDocsSet(split.set)
			if err != nil {
				t.Fatal(err)
			}
			roots := map[string]string{}
			for _, c := range cols {
				roots[c.Name] = filepath.Clean(os.Expand(c.Root, goldTestEnv))
			}
			for _, q := range qs {
				if q.Abstain {
					continue
				}
				t.Run(q.ID, func(t *testing.T) {
					root := roots[q.Collection]
					if st, err := os.Stat(root); err != nil || !st.IsDir() {
						t.Skipf("collection %s (%s) is not installed here", q.Collection, root)
					}
					name := filepath.Join(root, filepath.FromSlash(q.GoldFile))
					text, err := readRaw(name)
					if errors.Is(err, fs.ErrNotExist) {
						t.Skipf("gold file %s is not installed here", name)
					}
					if err != nil {
						t.Fatal(err)
					}
					if !bytes.Contains(text, []byte(q.Gold)) && isManPage(q.GoldFile) {
						// The troff source breaks a phrase across lines and
						// escapes its dots ("8\\&.4"); the reader sees the page
						// rendered, as the row's writer checked it, where a
						// line may end inside the phrase: the benchmark reads
						// an answer with its runs of white space as one space
						// (normalizeDocs), and so is the page read here.
						rendered, err := renderManPage(name)
						if err != nil {
							t.Skipf("gold string %q is not in the troff source of %s, and the page could not be rendered to check it there: %v", q.Gold, name, err)
						}
						text = []byte(strings.Join(strings.Fields(string(rendered)), " "))
					}
					if !bytes.Contains(text, []byte(q.Gold)) {
						if q.Collection == "debian" && path.Base(q.GoldFile) == "changelog.Debian.gz" {
							// A changelog gains an entry with each version of its package: a
							// machine with another version installed than the writer's (a
							// security update not applied yet) lacks the row's entry.
							pkg, _, _ := strings.Cut(q.GoldFile, "/")
							t.Skipf("gold string %q is not in %s: another version of %s is installed than the row was written against (apt-get install --only-upgrade %s)", q.Gold, name, pkg, pkg)
						}
						t.Errorf("gold string %q does not occur in %s", q.Gold, name)
					}
				})
			}
		})
	}
}

// Each test split keeps its id scheme: t-go-NN, t-pg-NN, t-deb-NN for the
// first one's answerable rows and t-neg-NN for the ones to abstain on;
// t2-... for the second, t3-... for the third and t4-... for the fourth
// (the sealed ones).
func TestDocsTestSetIDs(t *testing.T) {
	for _, split := range docsTestSplits {
		t.Run(split.set, func(t *testing.T) {
			_, qs, err := LoadDocsSet(split.set)
			if err != nil {
				t.Fatal(err)
			}
			id := regexp.MustCompile(`^` + split.prefix + `-(go|pg|deb|neg)-[0-9]{2}$`)
			neg := split.prefix + "-neg-"
			for _, q := range qs {
				if !id.MatchString(q.ID) {
					t.Errorf("id %q is not %s-{go,pg,deb,neg}-NN", q.ID, split.prefix)
				}
				if strings.HasPrefix(q.ID, neg) != q.Abstain {
					t.Errorf("%s: abstain = %v; %s rows and only they abstain", q.ID, q.Abstain, neg)
				}
				if !q.Abstain && !strings.HasPrefix(q.ID, split.prefix+"-"+docsCollectionIDPart(q.Collection)+"-") {
					t.Errorf("%s: collection %q does not match its id", q.ID, q.Collection)
				}
			}
		})
	}
}

// docsCollectionIDPart is the part of a test split's id that names the
// collection of an answerable row.
func docsCollectionIDPart(collection string) string {
	if collection == "debian" {
		return "deb"
	}
	return collection
}

// readRaw reads a file, decompressing it when its name ends in .gz.
func readRaw(name string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(name, ".gz") {
		zr, err := gzip.NewReader(f)
		if err != nil {
			return nil, err
		}
		defer zr.Close()
		r = zr
	}
	return io.ReadAll(r)
}

// manPageFile is a manual page's path in its collection: man1/x.1.gz.
var manPageFile = regexp.MustCompile(`^man[1-9]/[^/]+\.[1-9]\.gz$`)

// isManPage reports whether a gold file is a manual page.
func isManPage(file string) bool { return manPageFile.MatchString(file) }

// overstrike is a character struck over by the next one: man's bold and
// underline on a terminal.
var overstrike = regexp.MustCompile(".\x08")

// renderManPage renders a manual page as man(1) shows it on an
// 80-column terminal, with overstrikes (bold, underline) removed.
func renderManPage(name string) ([]byte, error) {
	cmd := exec.Command("man", "-l", name)
	cmd.Env = append(os.Environ(), "MANWIDTH=80", "MAN_KEEP_FORMATTING=")
	out, err := cmd.Output()
	if err != nil {
		return nil, err
	}
	return overstrike.ReplaceAll(out, nil), nil
}

// goldTestEnv resolves collection roots as `graphrag eval docs` does:
// GOROOT from the environment, else from the go command.
func goldTestEnv(name string) string {
	if v := os.Getenv(name); v != "" || name != "GOROOT" {
		return v
	}
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}
