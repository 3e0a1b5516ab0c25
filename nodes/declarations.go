package nodes

import (
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/graphrag/graphrag"
)

// This file finds, in code, the declaration of an identifier a question
// asks about, and the smallest piece of code that shows it: the entry of
// a const or var block ("StatusTeapot = 418 // RFC 9110, 15.5.19") rather
// than the block around it.

// askedIdent is an identifier a question asks about, as written, with the
// package that qualifies it ("" when none): "http.StatusTeapot" gives
// {StatusTeapot, http}, "where is WithCancel defined" {WithCancel, ""}.
type askedIdent struct {
	Name, Pkg string
}

// askedIdents are the identifiers a question asks about: the names
// askedNames finds, with the case the question writes them in and their
// package when qualified; not a name the question puts out of it ("which
// hash functions does crypto offer besides SHA256": see excludedName).
func askedIdents(query string) []askedIdent {
	return slices.DeleteFunc(namedIdents(query), func(a askedIdent) bool { return excludedName(query, a.Name) })
}

// excludedName reports whether the question names name only right after
// a word that puts it out of the question (excluding: "besides",
// "except", "without").
func excludedName(query, name string) bool {
	toks := tokenize(query)
	low := strings.ToLower(name)
	seen, out := false, true
	for i, t := range toks {
		if t.Lower != low && !strings.HasSuffix(t.Lower, "."+low) {
			continue
		}
		seen = true
		out = out && i > 0 && excluding[toks[i-1].Lower]
	}
	return seen && out
}

// namedIdents is askedIdents with the excluded names.
func namedIdents(query string) []askedIdent {
	var out []askedIdent
	seen := map[string]bool{}
	names := askedNames(query)
	for _, q := range qualifiedNames(query) {
		out = append(out, askedIdent{Name: q.Name, Pkg: q.Pkg})
		seen[strings.ToLower(q.Name)] = true
	}
	for _, f := range strings.FieldsFunc(query, func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '.')
	}) {
		f = strings.Trim(f, ".")
		if i := strings.LastIndex(f, "."); i >= 0 {
			f = f[i+1:]
		}
		if low := strings.ToLower(f); f != "" && !seen[low] && names[low] {
			seen[low] = true
			out = append(out, askedIdent{Name: f})
		}
	}
	return out
}

// is reports whether a name in code is this identifier: case and all when
// the question writes a capital (Go's MaxInt is not maxInt), ignoring
// case when it writes the name in lower case only.
func (a askedIdent) is(name string) bool {
	if strings.ToLower(a.Name) == a.Name {
		return strings.EqualFold(name, a.Name)
	}
	return name == a.Name
}

// declaredIn reports whether a code passage of hit h declares the
// identifier: a func, method, type, var or const of that name, or an entry
// of a const or var block, in the identifier's package when the question
// names one.
func (a askedIdent) declaredIn(code string, h graphrag.Hit) bool {
	if a.Pkg != "" && !inPackage(h, a.Pkg) {
		return a.fieldOf(h) && slices.ContainsFunc(strings.Split(code, "\n"), func(l string) bool { return structFieldLine(l, a) })
	}
	return declaresIdent(code, a)
}

// fieldOf reports whether the identifier is asked as a field of a value
// named after the hit's type ("job.Retries" of a Job: see ofNamedType), not
// as a name of a package.
func (a askedIdent) fieldOf(h graphrag.Hit) bool {
	return a.Pkg != "" && !inPackage(h, a.Pkg) && ofNamedType(h, a.Pkg)
}

// structFieldLine reports whether a line of a type declares the field a: an
// indented "Name Type" with no value ("Env []string", "Dir string").
func structFieldLine(line string, a askedIdent) bool {
	t := strings.TrimSpace(line)
	if t == line || strings.HasPrefix(t, "//") {
		return false
	}
	name := identPrefix(t)
	if name == "" || !a.is(name) {
		return false
	}
	rest := strings.TrimSpace(t[len(name):])
	return rest != "" && !strings.ContainsAny(rest[:1], "=(:.,") && !strings.Contains(rest, "=")
}

// symbolOf reports whether a code hit's chunk is of the identifier's
// declaration (its symbol names it: a long function cut in parts names it
// in every part), in its package when the question names one. A
// package-qualified name is the package's own declaration, exactly:
// sort.Search is the function, not the method IntSlice.Search
// ("sort.IntSlice.Search") nor a name inside another type.
func (a askedIdent) symbolOf(h graphrag.Hit) bool {
	if h.Chunk.Symbol == "" {
		return false
	}
	if a.Pkg != "" {
		pkg, name, ok := strings.Cut(h.Chunk.Symbol, ".")
		return ok && !strings.Contains(name, ".") && a.is(name) && (pkg == a.Pkg || inPackage(h, a.Pkg))
	}
	return a.is(lastPart(h.Chunk.Symbol))
}

// declaresIdent reports whether code declares a (see declaredIn), by its
// lines: "func Name(", "func (r T) Name(", "type Name ", "var Name ",
// "const Name ", "def Name(", "class Name", or a block entry "Name = …"
// or "Name Type = …".
func declaresIdent(code string, a askedIdent) bool {
	for _, line := range strings.Split(code, "\n") {
		if _, ok := declarationOf(line, a); ok {
			return true
		}
	}
	return false
}

// declarationOf reports whether one line declares a, and whether it is an
// entry of a block (indented "Name = …") rather than a declaration of its
// own.
func declarationOf(line string, a askedIdent) (entry, ok bool) {
	t := strings.TrimSpace(line)
	for _, kw := range []string{"func ", "type ", "var ", "const ", "def ", "class "} {
		if !strings.HasPrefix(t, kw) {
			continue
		}
		rest := strings.TrimPrefix(t, kw)
		if kw == "func " && strings.HasPrefix(rest, "(") {
			if a.Pkg != "" {
				// A method is not the package's name: "func (p
				// IntSlice) Search" does not declare sort.Search.
				return false, false
			}
			// A method: skip the receiver.
			if i := strings.Index(rest, ")"); i >= 0 {
				rest = strings.TrimSpace(rest[i+1:])
			}
		}
		name := identPrefix(rest)
		return false, name != "" && a.is(name)
	}
	if t == line || strings.HasPrefix(t, "//") {
		return false, false // a block entry is indented
	}
	name := identPrefix(t)
	if name == "" || !a.is(name) {
		return false, false
	}
	rest := strings.TrimSpace(t[len(name):])
	if i := strings.Index(rest, "="); i >= 0 && !strings.HasPrefix(rest[i:], "==") && !strings.ContainsAny(rest[:i], "(){}[];:") {
		return true, true // "Name = …", "Name Type = …"
	}
	return false, false
}

// identPrefix is the identifier text starts with.
func identPrefix(text string) string {
	for i, r := range text {
		if !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_') {
			return text[:i]
		}
	}
	return text
}

// entryOf is the entry of a const or var block that declares one of ids,
// with the comment lines right above it and the lines of a value that runs
// on: the smallest code that answers "what is the value of X", and the
// name it declares. ok is false when code declares none of them as a block
// entry (a func or a type is quoted whole). A field asked as one of a
// value named after its type ("job.Retries") is such an entry too.
func entryOf(code string, ids []askedIdent, h graphrag.Hit) (string, string, bool) {
	lines := strings.Split(code, "\n")
	for i, line := range lines {
		for _, a := range ids {
			var entry, ok bool
			switch {
			case a.fieldOf(h):
				// A field is quoted as an entry is: its line with its comment.
				ok = structFieldLine(line, a)
				entry = ok
			case a.Pkg != "" && !inPackage(h, a.Pkg):
				continue
			default:
				entry, ok = declarationOf(line, a)
			}
			if !ok || !entry {
				continue
			}
			from := i
			for from > 0 && strings.HasPrefix(strings.TrimSpace(lines[from-1]), "//") {
				from--
			}
			to := i + 1
			for depth := bracketDepth(line); depth > 0 && to < len(lines); to++ {
				depth += bracketDepth(lines[to])
			}
			name := identPrefix(strings.TrimSpace(line))
			if a.fieldOf(h) {
				name = strings.Split(h.Chunk.Symbol, ".")[1] + "." + name // "Job.Retries"
			}
			return dedent(lines[from:to]), name, true
		}
	}
	return "", "", false
}

// inGroup is an entry of a const or var block shown inside its block with
// the block's doc comment, when the entry has no doc of its own: "Portable
// analogs of some common system call errors. …" says what os.ErrNotExist
// is, its line alone only its value. The block's other entries are left
// out ("…"). chunk is the text of the declaration the entry is from; entry
// is returned as it is when the chunk does not open with a doc comment and
// the block.
func inGroup(entry, chunk string) string {
	if docComment(entry) {
		return entry
	}
	lines := strings.Split(chunk, "\n")
	n := 0
	for n < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[n]), "//") {
		n++
	}
	if n == 0 || n >= len(lines) {
		return entry
	}
	open := strings.TrimSpace(lines[n])
	if open != "var (" && open != "const (" {
		return entry
	}
	doc := lines[:n]
	if n+strings.Count(entry, "\n")+4 > maxCodeLines {
		// A doc too long to quote beside the entry: its first paragraph
		// says what the block's entries are.
		if p := slices.IndexFunc(doc, func(l string) bool { return strings.TrimSpace(l) == "//" }); p > 0 {
			doc = append(doc[:p:p], "//\t…")
		}
	}
	var b strings.Builder
	for _, l := range doc {
		b.WriteString(l + "\n")
	}
	b.WriteString(lines[n] + "\n\t…\n")
	for _, l := range strings.Split(entry, "\n") {
		b.WriteString("\t" + l + "\n")
	}
	b.WriteString("\t…\n)")
	return b.String()
}

// bracketDepth is how many more brackets a line opens than it closes.
func bracketDepth(line string) int {
	d := 0
	for _, r := range line {
		switch r {
		case '(', '{', '[':
			d++
		case ')', '}', ']':
			d--
		}
	}
	return d
}

// docComment reports whether a code unit opens with a comment: the doc of
// the declaration its chunk is of.
func docComment(code string) bool {
	t := strings.TrimSpace(code)
	return strings.HasPrefix(t, "//") || strings.HasPrefix(t, "/*") || strings.HasPrefix(t, "#")
}

// funcWords name what a question asks for when it asks for a function.
var funcWords = toSet(funcWordList)

const funcWordList = `function functions func helper helpers method methods constructor`

// funcWordPattern finds a word of funcWords in any case, so that a
// question without one is not tokenized.
var funcWordPattern = regexp.MustCompile(`(?i)\b(` + strings.Join(strings.Fields(funcWordList), "|") + `)\b`)

// auxWords stand between "what" and a function the question names: "what
// does the Zorp function do" asks about Zorp, not for a function.
var auxWords = toSet(`does do did is are was were can could will would should has have`)

// asksUnnamedFunc reports whether the question asks for a function it
// does not name: "which io/zorp function converts a Frob into a Zorp",
// "is there a helper in zorp for that". The declaration of a type it names
// is what the function takes, not the answer. A word in capitals is a
// statement's keyword ("which CREATE FUNCTION option").
func asksUnnamedFunc(query string) bool {
	if !funcWordPattern.MatchString(query) {
		return false
	}
	asking := askingPart(query)
	toks := tokenize(asking)
	for i, t := range toks {
		from := -1
		switch {
		case t.Lower == "which" || t.Lower == "what":
			from = i + 1
		case t.Lower == "is" && i+2 < len(toks) && toks[i+1].Lower == "there":
			from = i + 2
		}
		if from < 0 {
			continue
		}
		for j := from; j < min(len(toks), from+4); j++ {
			if auxWords[toks[j].Lower] {
				break
			}
			if funcWords[toks[j].Lower] && asking[toks[j].Start:toks[j].End] != strings.ToUpper(toks[j].Lower) {
				// Not a statement's keyword: "which CREATE FUNCTION
				// option" asks for an option.
				return true
			}
		}
	}
	return false
}

// funcDeclaration finds a func or method declaration line and its name.
var funcDeclaration = regexp.MustCompile(`(?m)^\s*func\s+(?:\([^)]*\)\s*)?([A-Za-z_]\w*)`)

// declaresOtherFunc reports whether code declares a function or method
// the question does not name.
func declaresOtherFunc(code string, idents []askedIdent) bool {
	for _, m := range funcDeclaration.FindAllStringSubmatch(code, -1) {
		if !slices.ContainsFunc(idents, func(a askedIdent) bool { return strings.EqualFold(a.Name, m[1]) }) {
			return true
		}
	}
	return false
}
