package ingest

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// IgnoreFile is the name of the file, in any ingested directory, whose
// lines in gitignore syntax name paths (relative to that directory) that
// ingest skips; a "!" line takes a path back, also one of DefaultIgnore.
const IgnoreFile = ".graphragignore"

// DefaultIgnore lists, in gitignore syntax, what ingest skips in every
// directory it walks: vendored copies, test fixtures and dependency or
// build caches, which repeat or imitate the code they belong to and so
// crowd its definitions out of search results. A "!testdata/" line in
// an IgnoreFile takes one back. Hidden files and directories are skipped
// apart (ReasonHidden).
var DefaultIgnore = []string{"vendor/", "testdata/", "node_modules/", "__pycache__/", "*.pyc", "*.o", "*.a", "*.so", "*.class"}

// ReasonIgnored is why a path matched by DefaultIgnore or an IgnoreFile is
// skipped; a directory is reported once, not file by file.
const ReasonIgnored = "ignored"

// ignorer matches paths relative to one root against the default list and
// the IgnoreFiles met so far, in order (a later pattern wins).
type ignorer struct {
	patterns []gitignore.Pattern
	user     []gitignore.Pattern
	all      gitignore.Matcher
	users    gitignore.Matcher
}

func newIgnorer() *ignorer {
	ig := &ignorer{}
	for _, p := range DefaultIgnore {
		ig.patterns = append(ig.patterns, gitignore.ParsePattern(p, nil))
	}
	ig.rebuild()
	return ig
}

func (ig *ignorer) rebuild() {
	ig.all = gitignore.NewMatcher(ig.patterns)
	ig.users = gitignore.NewMatcher(ig.user)
}

// load reads dir's IgnoreFile, if any; rel is dir relative to the root.
func (ig *ignorer) load(dir, rel string) {
	data, err := os.ReadFile(filepath.Join(dir, IgnoreFile))
	if err != nil || len(data) > 1<<20 {
		return
	}
	var domain []string
	if rel != "." && rel != "" {
		domain = strings.Split(filepath.ToSlash(rel), "/")
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	added := false
	for sc.Scan() {
		l := strings.TrimRight(sc.Text(), " \t\r")
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		p := gitignore.ParsePattern(l, domain)
		ig.patterns = append(ig.patterns, p)
		ig.user = append(ig.user, p)
		added = true
	}
	if added {
		ig.rebuild()
	}
}

// match reports whether rel (relative to the root) is ignored, and by what.
func (ig *ignorer) match(rel string, isDir bool) (bool, string) {
	parts := strings.Split(filepath.ToSlash(rel), "/")
	if !ig.all.Match(parts, isDir) {
		return false, ""
	}
	if ig.users.Match(parts, isDir) {
		return true, IgnoreFile
	}
	return true, "default ignore list; a !pattern line in " + IgnoreFile + " takes it back"
}
