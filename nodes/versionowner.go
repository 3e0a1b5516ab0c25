package nodes

import (
	"path"
	"regexp"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/internal/text"
)

// versionMeetsName reports whether a hit writes version as the version of
// name (both lower-cased), not of something else it names:
//
//   - right after the name: "quill 2.5", "quill (2.5-1) unstable" (a
//     changelog's header), "quill-2.5", "quill version 2.5", "quill2.5";
//   - in a Debian changelog's entry of the package (see packageEntry):
//     "quill-tools (2.5-1) unstable" in libquill-java's changelog;
//   - with no name of its own ("changes in release 2.5", "2.5:" at a line's
//     start, "new upstream release 2.5") in a hit that holds the name, in
//     its text or path: the file's own release;
//   - in the hit's path ("quill/notes/2.5.0.txt", "quill-2.5/README") when
//     the hit holds the name.
//
// "now built with Gizmo DB version 2.5" in quill's NEWS is Gizmo DB's 2.5,
// not quill's.
func versionMeetsName(h graphrag.Hit, name, version string) bool {
	file := strings.ToLower(strings.ReplaceAll(h.Source.Path, "\\", "/"))
	text := h.Chunk.Text + "\n" + h.Chunk.Heading + "\n" + h.Source.Title
	holdsName := sync.OnceValue(func() bool { return hasWord(strings.ToLower(text), name) || hasWord(file, name) })
	if pathHoldsVersion(file, version) && holdsName() || pathNamesVersion(file, name, version) {
		return true
	}
	at := versionAt(version)
	for _, loc := range at.FindAllStringSubmatchIndex(text, -1) {
		owner, named := versionOwner(text[:loc[2]])
		switch {
		case strings.EqualFold(owner, name), packageEntry(file, lineAt(text, loc[2]), owner, name):
			return true
		case !named && holdsName():
			return true
		}
	}
	return false
}

// packageEntry reports whether line opens an entry of a Debian changelog
// of the package name: the entry names its source package ("zorp-tools
// (2.3-1) unstable; urgency=medium"), which the binary package whose
// folder holds the file ("libzorp-java") need not share. Every entry of
// the changelog in name's folder is name's, and so is an entry whose
// source package holds name as a word ("zorp" of "zorp-libraries").
func packageEntry(file, line, owner, name string) bool {
	if !text.ChangelogRelease.MatchString(line) {
		return false
	}
	return path.Base(path.Dir(file)) == name || hasWord(strings.ToLower(owner), name)
}

// lineAt is the line of text that holds byte offset at.
func lineAt(text string, at int) string {
	start := strings.LastIndexByte(text[:at], '\n') + 1
	end := strings.IndexByte(text[at:], '\n')
	if end < 0 {
		return text[start:]
	}
	return text[start : at+end]
}

// pathNamesVersion reports whether a folder or file name of path is the
// name with the version glued on, as packages of a library's release are
// named: "libzorp5.3" and "zorp-5.3" for "Zorp 5.3", "frob2.1-dev" for
// "frob 2.1".
func pathNamesVersion(path, name, version string) bool {
	for _, part := range strings.Split(path, "/") {
		for _, p := range []string{part, strings.TrimPrefix(part, "lib")} {
			rest, ok := strings.CutPrefix(p, name)
			if !ok {
				continue
			}
			rest = strings.TrimLeft(rest, "-_")
			if rest, ok = strings.CutPrefix(rest, version); ok && (rest == "" || rest[0] == '-' || rest[0] == '.' && !startsDigit(rest[1:])) {
				return true
			}
		}
	}
	return false
}

func startsDigit(s string) bool { return s != "" && s[0] >= '0' && s[0] <= '9' }

// versionAt finds version as a whole version, case-insensitively: "2.5" in
// "2.5", "2.5.1" and "v2.5", not in "12.5" or "2.50".
func versionAt(version string) *regexp.Regexp {
	return regexp.MustCompile(`(?i)(?:^|[^\d.])` + `(` + regexp.QuoteMeta(version) + `)(?:[^\d]|\.\d|$)`)
}

// pathHoldsVersion reports whether a folder or the file name of path
// starts with version, whole: "notes/2.5.0.txt", "quill-2.5/README".
func pathHoldsVersion(path, version string) bool {
	for _, part := range strings.Split(path, "/") {
		for _, at := range []int{0, strings.LastIndexAny(part, "-_") + 1} {
			rest, ok := strings.CutPrefix(part[at:], version)
			if ok && (rest == "" || rest[0] == '.' || rest[0] == '-') {
				return true
			}
		}
	}
	return false
}

// versionWords are the words a version may follow in place of its name's
// separator: "quill version 2.5", "quill release 2.5".
var versionWords = toSet(`version release v`)

// versionOwner is the word a version written right after before belongs
// to: the last word of before, past separators ("(", "-", "/") and
// versionWords, as written. named reports whether that word is a name: written with a capital,
// a digit, "_", "-" or "+" ("DB", "libquill2", "quill-tools"); a plain
// lower-case word ("upstream", "in") or none leaves the version to the
// file's own subject. The word right before the version with no space ("quill2.5") is
// the name all the same. A Debian epoch between a changelog entry's "(" and
// its version ("quill (2:2.5-1)") is part of the version, not its owner.
func versionOwner(before string) (owner string, named bool) {
	before = trimEpoch(before)
	if r, _ := utf8.DecodeLastRuneInString(before); unicode.IsLetter(r) {
		w := lastWord(before)
		if strings.EqualFold(w, "v") {
			before = before[:len(before)-1]
		} else {
			return w, true
		}
	}
	for {
		before = strings.TrimRight(before, " \t()/-:")
		w := lastWord(before)
		if w == "" || !versionWords[strings.ToLower(w)] {
			if w == "" {
				return "", false
			}
			return w, isNameLike(w)
		}
		before = before[:len(before)-len(w)]
	}
}

// trimEpoch removes the Debian epoch ("2:") that ends before when an
// opening parenthesis stands right before it: "quill (2:" is "quill (".
func trimEpoch(before string) string {
	rest, ok := strings.CutSuffix(before, ":")
	if !ok {
		return before
	}
	open := strings.TrimRightFunc(rest, func(r rune) bool { return r >= '0' && r <= '9' })
	if len(open) == len(rest) || !strings.HasSuffix(open, "(") {
		return before
	}
	return open
}

// lastWord is the run of letters, digits, "_", "-" and "+" that ends s.
func lastWord(s string) string {
	i := len(s)
	for i > 0 {
		r, size := utf8.DecodeLastRuneInString(s[:i])
		if !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '-' || r == '+') {
			break
		}
		i -= size
	}
	return strings.TrimLeft(s[i:], "-")
}

// isNameLike reports whether a word is written as names are: with a
// capital, a digit, "_", "-" or "+". A stop word written with a capital
// at a sentence's start ("In 2.5 …") is no name.
func isNameLike(w string) bool {
	if stopWords[strings.ToLower(w)] || nameGlue[strings.ToLower(w)] {
		return false
	}
	return strings.ContainsFunc(w, func(r rune) bool {
		return unicode.IsUpper(r) || unicode.IsDigit(r) || r == '_' || r == '-' || r == '+'
	})
}
