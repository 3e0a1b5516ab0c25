package nodes

import (
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/graphrag/graphrag"
)

// qualifiedName is an identifier a question qualifies with its package,
// as Go (and many languages) write it: "strings.Reverse",
// "http.StatusTeapot". The package is part of what is asked: sort.Reverse
// does not answer "what does strings.Reverse do".
type qualifiedName struct {
	Pkg, Name string // as written
}

// qualifiedPattern finds a lower-case package name, a dot and an exported
// name. Lower-case names after the dot (Python's "os.path.join") and
// capitalised words before it ("Node.js") are not package-qualified
// identifiers of this kind.
var qualifiedPattern = regexp.MustCompile(`\b([a-z][a-z0-9_]*)\.([A-Z][A-Za-z0-9_]*)\b`)

// qualifiedNames are the package-qualified identifiers of a question. A
// qualifier of one letter is a variable, as Go code names a receiver or a
// test's *testing.T ("t.Parallel()", "w.Header()"): no package is so
// named, and what the question asks about is the method, which askedNames
// keeps.
func qualifiedNames(question string) []qualifiedName {
	var out []qualifiedName
	for _, m := range qualifiedPattern.FindAllStringSubmatch(question, -1) {
		if len(m[1]) == 1 {
			continue
		}
		q := qualifiedName{Pkg: m[1], Name: m[2]}
		dup := false
		for _, o := range out {
			dup = dup || o == q
		}
		if !dup {
			out = append(out, q)
		}
	}
	return out
}

// key is the name as a lower-cased term ("strings.reverse"), the form
// constrainingTerms and contentTerms give it.
func (q qualifiedName) key() string { return strings.ToLower(q.Pkg + "." + q.Name) }

// heldBy reports whether a hit speaks of q: its text names it qualified
// ("strings.Reverse"), or the hit belongs to the package (code whose
// symbol is "strings.…", a file in a folder named strings) and names the
// identifier as a whole word, case and all: Go names are case-sensitive,
// and "reverse" in a comment is not the function Reverse.
func (q qualifiedName) heldBy(h graphrag.Hit) bool {
	if strings.Contains(strings.ToLower(h.Chunk.Text+"\n"+h.Chunk.Heading), q.key()) {
		return true
	}
	if !inPackage(h, q.Pkg) && !ofNamedType(h, q.Pkg) {
		return false
	}
	return hasWord(h.Chunk.Text, q.Name) || hasWord(h.Chunk.Symbol, q.Name) || hasWord(h.Chunk.Heading, q.Name)
}

// minVariableName is the shortest qualifier read as a variable named after
// its type: Go code names a value after its type ("cmd" for a Cmd, "req"
// for a Request), and a question copies the code ("job.Retries"). One or two
// letters ("c", "w") would name a prefix of too many types.
const minVariableName = 3

// ofNamedType reports whether a hit is code of the type a qualifier names
// as a variable of it: its symbol's type ("exec.Cmd", "exec.Cmd.Start")
// is the qualifier capitalised, or begins with it ("req": Request).
func ofNamedType(h graphrag.Hit, variable string) bool {
	if len(variable) < minVariableName {
		return false
	}
	parts := strings.Split(h.Chunk.Symbol, ".")
	if len(parts) < 2 {
		return false
	}
	typ := parts[1]
	return strings.HasPrefix(typ, strings.ToUpper(variable[:1])+variable[1:])
}

// inPackage reports whether a hit is of package pkg: a code chunk whose
// symbol starts with "pkg.", or a file in a folder named pkg.
func inPackage(h graphrag.Hit, pkg string) bool {
	if strings.HasPrefix(h.Chunk.Symbol, pkg+".") {
		return true
	}
	dir := path.Dir(strings.ReplaceAll(h.Source.Path, "\\", "/"))
	for _, part := range strings.Split(dir, "/") {
		if part == pkg {
			return true
		}
	}
	return false
}

// hasWord reports whether text holds w as a whole identifier: not inside a
// longer one ("Reverse" is not in "ReverseProxy" or "reverse").
func hasWord(text, w string) bool {
	for i := 0; ; {
		j := strings.Index(text[i:], w)
		if j < 0 {
			return false
		}
		at := i + j
		end := at + len(w)
		if (at == 0 || !isIdentByte(text[at-1])) && (end == len(text) || !isIdentByte(text[end])) {
			return true
		}
		i = at + 1
	}
}

func isIdentByte(b byte) bool {
	return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= 0x80
}

// memberName is a method or field a question names with its type:
// "sync.Map.Len", "time.Duration's Days method". Pkg may be empty.
type memberName struct {
	Pkg, Type, Member string // as written
}

// dottedMemberPattern and possessiveMemberPattern find a member with its
// type: the package, the type and the member joined by dots, or the
// type's possessive before the member and the word "method" or "field".
var (
	dottedMemberPattern     = regexp.MustCompile(`\b([a-z][a-z0-9_]*)\.([A-Z][A-Za-z0-9_]*)\.([A-Z][A-Za-z0-9_]*)\b`)
	possessiveMemberPattern = regexp.MustCompile(`\b(?:([a-z][a-z0-9_]*)\.)?([A-Z][A-Za-z0-9_]*)(?:'s|’s)\s+([A-Z][A-Za-z0-9_]*)\s+(?:method|field)\b`)
)

// memberNames are the members a question names with their type.
func memberNames(question string) []memberName {
	var out []memberName
	for _, p := range []*regexp.Regexp{dottedMemberPattern, possessiveMemberPattern} {
		for _, m := range p.FindAllStringSubmatch(question, -1) {
			n := memberName{Pkg: m[1], Type: m[2], Member: m[3]}
			if len(n.Pkg) != 1 && !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
	}
	return out
}

// key is the member as matchConstraints reports it missing, lower-cased
// with its type ("map.len").
func (n memberName) key() string { return strings.ToLower(n.Type + "." + n.Member) }

// heldBy reports whether a hit speaks of the member as the type's: it
// writes "Type.Member", is the member's own code (symbol
// "pkg.Type.Member"), declares it as a method of the type, or is the
// type's code and names it (a field, an interface's method).
func (n memberName) heldBy(h graphrag.Hit) bool {
	typed := n.Type + "." + n.Member
	if hasWord(h.Chunk.Text, typed) || hasWord(h.Chunk.Heading, typed) || strings.HasSuffix(h.Chunk.Symbol, "."+typed) || h.Chunk.Symbol == typed {
		return true
	}
	if declaresMethod(h.Chunk.Text, n.Member) && hasWord(h.Chunk.Text, n.Type) {
		// On the type ("func (m *Map) Len("), or on the type of a value
		// so named: "var Bool boolType" beside "func (boolType)
		// ConvertValue(".
		return true
	}
	sym := h.Chunk.Symbol
	return (sym == n.Type || strings.HasSuffix(sym, "."+n.Type)) && hasWord(h.Chunk.Text, n.Member)
}

// declaresMethod reports whether code declares a method named member, on
// any receiver: "func (m *Map) Len(".
func declaresMethod(code, member string) bool {
	for i := 0; ; {
		j := strings.Index(code[i:], ") "+member+"(")
		if j < 0 {
			return false
		}
		at := i + j
		if open := strings.LastIndex(code[:at], "func ("); open >= 0 && !strings.Contains(code[open:at], "\n") {
			return true
		}
		i = at + 1
	}
}
