package nodes

import (
	"path"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/graphrag/graphrag"
)

// keywordRunPattern finds two or more upper-case words in a row, as
// questions write a statement's syntax ("SPLICE WITH MIRROR", "FOR
// SHARE"): words of two or more letters, digits or "_".
var keywordRunPattern = regexp.MustCompile(`\b[A-Z][A-Z0-9_]+(?:[ \t]+[A-Z][A-Z0-9_]+)+\b`)

// keywordPhrases are the question's upper-case phrases, as written. A
// question written all in capitals has none: its capitals say nothing.
func keywordPhrases(question string) []string {
	if !strings.ContainsFunc(question, unicode.IsLower) {
		return nil
	}
	var out []string
	for _, p := range keywordRunPattern.FindAllString(question, -1) {
		p = strings.Join(strings.Fields(p), " ")
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// phraseHeldBy reports whether a hit holds an upper-case phrase as syntax:
// the phrase itself, in any case and spacing, or each of its words written
// in upper case, as a synopsis spreads a clause's keywords over its
// options ("TRUNCATE [ TABLE ] name [ RESTART IDENTITY ]" holds
// "TRUNCATE RESTART IDENTITY"). A hit with some of the words only, or with
// the words in lower case or inside an identifier ("flush_cache" for
// "FLUSH CACHE"), has another clause or none. The words of the hit's file
// name count too: a part of ALTER_TABLE.7 that describes SET COMPRESSION is
// of "ALTER TABLE … SET COMPRESSION" though it never writes ALTER TABLE.
func phraseHeldBy(phrase string, h graphrag.Hit) bool {
	raw := h.Chunk.Text + "\n" + h.Chunk.Heading + "\n" + h.Chunk.Symbol + "\n" + h.Source.Title + "\n" + fileNameWords.Replace(path.Base(h.Source.Path))
	if hasWord(strings.ToLower(strings.Join(strings.Fields(raw), " ")), strings.ToLower(phrase)) {
		return true
	}
	for _, w := range strings.Fields(phrase) {
		if !hasWord(raw, w) {
			return false
		}
	}
	return true
}

// fileNameWords splits a file name into its words: "ALTER_TABLE.7.gz" is
// "ALTER TABLE 7 gz".
var fileNameWords = strings.NewReplacer("_", " ", ".", " ", "-", " ")

// scopePattern finds a proper name a question limits its answer to: a
// word written with a capital after "on", "for" or "under" ("on
// Zephyrix", "for Windows", "under Linux"), the system the answer must
// hold for. "in" is left out: "in X" names a place or a work as often,
// which passages write as an adjective ("Norvanian ships" for "ships in
// Norvania"); requiring the name itself cost a HotpotQA row (eval rag).
var scopePattern = regexp.MustCompile(`\b(?:[oO]n|[fF]or|[uU]nder)\s+([A-Z][\w+-]*)`)

// scopeNames are the proper names the question limits its answer to,
// lower-cased. A function word ("in The …") is no name.
func scopeNames(question string) []string {
	var out []string
	for _, m := range scopePattern.FindAllStringSubmatch(question, -1) {
		n := strings.ToLower(m[1])
		if stopWords[n] || nameGlue[n] || len(n) < 2 || slices.Contains(out, n) {
			continue
		}
		out = append(out, n)
	}
	return out
}

// unscoped returns the scope names of the question (see scopeNames) that
// none of the hits holds, in its text, title or path, or as a word of its
// file's name: the spool directory of a Debian README does not answer
// where the spool directory is on another system, and Go's
// spool_zephyrix.go is Zephyrix's though it never says so.
func unscoped(question string, hits []graphrag.Hit) []string {
	var out []string
	for _, n := range scopeNames(question) {
		if !slices.ContainsFunc(hits, func(h graphrag.Hit) bool {
			return newHaystack(h).holdsWord(n) || hasWord(strings.ToLower(fileNameWords.Replace(path.Base(h.Source.Path))), n)
		}) {
			out = append(out, n)
		}
	}
	return out
}

// goSystems are the operating systems Go builds for (go/build's known
// GOOS values): a Go file named name_GOOS.go or name_GOOS_GOARCH.go is
// built for that system only.
var goSystems = toSet(`aix android darwin dragonfly freebsd hurd illumos ios js linux nacl netbsd openbsd plan9 solaris wasip1 windows zos`)

// goArchs are the architectures Go builds for (go/build's known GOARCH
// values), the last part of a name_GOOS_GOARCH.go file's name.
var goArchs = toSet(`386 amd64 amd64p32 arm armbe arm64 arm64be loong64 mips mipsle mips64 mips64le mips64p32 mips64p32le ppc ppc64 ppc64le riscv riscv64 s390 s390x sparc sparc64 wasm`)

// goFileSystem is the system a Go source file is built for by its name
// alone, by go/build's rules ("_test", then a GOARCH part stripped; a
// GOOS part after at least one other), "" for any other file.
func goFileSystem(p string) string {
	name, ok := strings.CutSuffix(path.Base(p), ".go")
	if !ok {
		return ""
	}
	parts := strings.Split(strings.TrimSuffix(name, "_test"), "_")
	if n := len(parts); n > 2 && goArchs[parts[n-1]] {
		parts = parts[:n-1]
	}
	if n := len(parts); n > 1 && goSystems[parts[n-1]] {
		return parts[n-1]
	}
	return ""
}

// forAskedSystem orders hits for a question limited to one system Go
// builds for ("on OpenBSD", see scopeNames): the files of a folder built
// for that system by their name come first among the folder's hits, in
// the place of its first, and files built for another system are left
// out. A system's own file outranks its package's general ones
// (spool_netbsd.go names the file spool.go's loader reads there), not
// another package's better hits: a question on zorp's spool on Linux is
// not about runtime's os_linux_arm.go.
func forAskedSystem(question string, hits []graphrag.Hit) []graphrag.Hit {
	asked := ""
	for _, n := range scopeNames(question) {
		if goSystems[n] {
			asked = n
			break
		}
	}
	if asked == "" {
		return hits
	}
	systems := make([]string, len(hits))
	own := map[string][]graphrag.Hit{}
	for i, h := range hits {
		systems[i] = goFileSystem(h.Source.Path)
		if systems[i] == asked {
			d := path.Dir(h.Source.Path)
			own[d] = append(own[d], h)
		}
	}
	out := make([]graphrag.Hit, 0, len(hits))
	for i, h := range hits {
		d := path.Dir(h.Source.Path)
		out = append(out, own[d]...)
		delete(own, d)
		if systems[i] == "" {
			out = append(out, h)
		}
	}
	return out
}
