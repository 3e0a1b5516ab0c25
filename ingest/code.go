package ingest

import (
	"path/filepath"
	"regexp"
	"strings"

	"github.com/graphrag/graphrag"
)

// RoleKey is the Document.Metadata key that says what part a file plays in
// a source tree (graphrag.MetaRole): one of the Role values. Both stores
// rank such documents below the definitions they test or copy.
const RoleKey = graphrag.MetaRole

// Roles of a document (Document.Metadata[RoleKey]), as graphrag defines
// them.
const (
	RoleTest      = graphrag.RoleTest
	RoleTestdata  = graphrag.RoleTestdata
	RoleVendor    = graphrag.RoleVendor
	RoleGenerated = graphrag.RoleGenerated
)

// codeLang is a light description of a language's top-level definitions,
// enough to cut a file into one section per definition without parsing it.
type codeLang struct {
	// def matches a line that starts a definition; its submatches named
	// kind and name say what it defines.
	def *regexp.Regexp
	// comments are the prefixes of comment lines (and decorators or
	// attributes) that belong to the definition below them.
	comments []string
	// indent is the deepest indentation (in columns, a tab counts 4) of a
	// definition line: 0 for top level only; Java's methods sit one level
	// inside their class.
	indent int
	// qualify prefixes symbols with the file's stem (a Python module).
	qualify bool
	// typeAbove: a definition's return type may stand on the line above
	// its name (C's "static int\nmain(void)").
	typeAbove bool
}

var codeLangs = map[string]*codeLang{}

func init() {
	python := &codeLang{
		def:      regexp.MustCompile(`^(?:async\s+)?(?P<kind>def|class)\s+(?P<name>[A-Za-z_]\w*)`),
		comments: []string{"#", "@"}, qualify: true,
	}
	js := &codeLang{
		def: regexp.MustCompile(`^(?:export\s+(?:default\s+)?)?(?:declare\s+)?(?:abstract\s+)?(?:async\s+)?` +
			`(?P<kind>function\*?|class|interface|type|enum|const|let|var|namespace)\s+(?P<name>[A-Za-z_$][\w$]*)`),
		comments: []string{"//", "/*", "*", "@"}, qualify: true,
	}
	c := &codeLang{
		// A function definition's first line: a return type and a name
		// followed by '(' and no ';' (that would be a prototype); or a
		// struct, union, enum, class, namespace or macro.
		def: regexp.MustCompile(`^(?:(?P<kind>struct|union|enum|class|namespace|typedef\s+struct|#define)\s+(?P<name>[A-Za-z_]\w*)` +
			`|(?:[A-Za-z_][\w\s\*&:<>,]*?[\s\*&])?(?P<name2>[A-Za-z_~][\w:~]*)\s*\([^;]*$)`),
		comments: []string{"//", "/*", "*"}, typeAbove: true,
	}
	java := &codeLang{
		def: regexp.MustCompile(`^\s*(?:(?:public|private|protected|abstract|final|static|sealed|synchronized|native|default|strictfp)\s+)*` +
			`(?:(?P<kind>class|interface|enum|record|@interface)\s+(?P<name>\w+)|[\w<>\[\],.? ]+?\s+(?P<name2>\w+)\s*\([^;]*$)`),
		comments: []string{"//", "/*", "*", "@"}, indent: 4,
	}
	rust := &codeLang{
		def: regexp.MustCompile(`^(?:pub(?:\([^)]*\))?\s+)?(?:(?:unsafe|async|const|extern\s+"[^"]*")\s+)*` +
			`(?P<kind>fn|struct|enum|trait|impl|mod|type|const|static|union|macro_rules!)\s*(?:<[^>]*>\s*)?(?P<name>[A-Za-z_]\w*)`),
		comments: []string{"//", "#[", "#!["}, qualify: true,
	}
	shell := &codeLang{
		def:      regexp.MustCompile(`^(?:function\s+(?P<name>[\w.:-]+)|(?P<name2>[A-Za-z_][\w.:-]*)\s*\(\s*\))`),
		comments: []string{"#"},
	}
	for ext, l := range map[string]*codeLang{"py": python, "pyi": python, "js": js, "mjs": js, "cjs": js, "jsx": js,
		"ts": js, "tsx": js, "c": c, "h": c, "cc": c, "cpp": c, "cxx": c, "hpp": c, "hh": c, "java": java,
		"rs": rust, "sh": shell, "bash": shell, "zsh": shell} {
		codeLangs[ext] = l
	}
}

// notDefs are words that start a line like a call or control statement, not
// a C or Java definition.
var notDefs = map[string]bool{"if": true, "for": true, "while": true, "switch": true, "return": true, "else": true,
	"do": true, "case": true, "sizeof": true, "catch": true, "new": true, "throw": true}

// licenceHeader matches the words of a licence or copyright notice.
var licenceHeader = regexp.MustCompile(`(?i)copyright|licen[cs]e|spdx-license-identifier|all rights reserved`)

// sectionsOf finds the sections of a file's text by its type: declarations
// of Go and of the languages in codeLangs, text under the headings of
// Markdown and reStructuredText, the whole text otherwise. meta carries
// what the text says of the file's role (generated code).
func sectionsOf(path, ext, text string, size int) (secs []Section, meta map[string]string) {
	switch {
	case ext == "go":
		s, role, ok := goSections([]byte(text), size)
		if ok {
			if role != "" {
				meta = map[string]string{RoleKey: role}
			}
			return s, meta
		}
		return textSections(text), nil
	case codeLangs[ext] != nil:
		return codeSections(codeLangs[ext], strings.TrimSuffix(filepath.Base(path), filepath.Ext(path)), text), nil
	case ext == "md" || ext == "markdown" || ext == "mdx":
		return markdownSections(text), nil
	case ext == "rst":
		return rstSections(text), nil
	}
	return textSections(text), nil
}

// codeSections cuts source code at the lines that start a top-level
// definition (with the comments, decorators or attributes right above
// it). What comes before the first definition is a "module" section,
// without a leading licence or copyright comment.
func codeSections(lang *codeLang, stem, text string) []Section {
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	isComment := func(l string) bool {
		t := strings.TrimSpace(l)
		for _, p := range lang.comments {
			if strings.HasPrefix(t, p) {
				return true
			}
		}
		return strings.HasSuffix(t, "*/")
	}
	begin := skipLicence(lines, isComment)
	type def struct {
		at             int // first line, comments included
		kind, name, hd string
	}
	var defs []def
	class := ""
	for i := begin; i < len(lines); i++ {
		l := lines[i]
		if l == "" || indentOf(l) > lang.indent || isComment(l) {
			continue
		}
		m := lang.def.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		kind, name := "", ""
		for j, n := range lang.def.SubexpNames() {
			switch {
			case n == "kind" && m[j] != "":
				kind = strings.Fields(m[j])[len(strings.Fields(m[j]))-1]
			case (n == "name" || n == "name2") && m[j] != "" && name == "":
				name = m[j]
			}
		}
		if name == "" || notDefs[name] {
			continue
		}
		switch kind {
		case "", "function", "function*", "def", "fn":
			kind = "func"
		case "#define", "macro_rules!":
			kind = "macro"
		case "let":
			kind = "var"
		case "@interface", "record":
			kind = "type"
		}
		sym := name
		if lang.indent > 0 { // Java: methods belong to the class above
			if indentOf(l) == 0 {
				class = name
			} else if class != "" {
				sym, kind = class+"."+name, "method"
			}
		}
		if lang.qualify && stem != "" {
			sym = stem + "." + sym
		}
		at := i
		if lang.typeAbove && at > begin {
			if p := strings.TrimSpace(lines[at-1]); p != "" && indentOf(lines[at-1]) == 0 && !isComment(lines[at-1]) &&
				!strings.HasSuffix(p, ";") && !strings.HasSuffix(p, "}") && !strings.HasSuffix(p, "{") && !strings.HasPrefix(p, "#") {
				at--
			}
		}
		for at > begin && isComment(lines[at-1]) {
			at--
		}
		if len(defs) > 0 && at <= defs[len(defs)-1].at {
			continue
		}
		hd := strings.TrimSpace(strings.TrimRight(strings.TrimSpace(l), "{:"))
		defs = append(defs, def{at, kind, sym, hd})
	}
	var secs []Section
	add := func(from, to int, hd, sym, kind string) {
		for to > from && strings.TrimSpace(lines[to-1]) == "" {
			to--
		}
		for from < to && strings.TrimSpace(lines[from]) == "" {
			from++
		}
		if from < to {
			secs = append(secs, Section{Text: strings.Join(lines[from:to], "\n"), Heading: hd, Symbol: sym, Kind: kind, StartLine: from + 1})
		}
	}
	first := len(lines)
	if len(defs) > 0 {
		first = defs[0].at
	}
	add(begin, first, "", "", "module")
	for k, d := range defs {
		end := len(lines)
		if k+1 < len(defs) {
			end = defs[k+1].at
		}
		add(d.at, end, d.hd, d.name, d.kind)
	}
	return secs
}

// skipLicence returns the first line after a licence or copyright comment
// at the top of a file (after a #! line), 0 when there is none.
func skipLicence(lines []string, isComment func(string) bool) int {
	i := 0
	if len(lines) > 0 && strings.HasPrefix(lines[0], "#!") {
		i = 1
	}
	for i < len(lines) && strings.TrimSpace(lines[i]) == "" {
		i++
	}
	j := i
	for j < len(lines) && isComment(lines[j]) {
		j++
	}
	if j > i && licenceHeader.MatchString(strings.Join(lines[i:j], "\n")) {
		return j
	}
	return 0
}

// indentOf counts leading indentation in columns, a tab as 4.
func indentOf(l string) int {
	n := 0
	for _, r := range l {
		switch r {
		case ' ':
			n++
		case '\t':
			n += 4
		default:
			return n
		}
	}
	return n
}

// roleOf says what part a file plays in a source tree from its path
// relative to the ingested root ("" for code and documentation).
func roleOf(rel string) string {
	rel = filepath.ToSlash(rel)
	parts := strings.Split(rel, "/")
	for _, d := range parts[:len(parts)-1] {
		switch d {
		case "vendor", "third_party", "node_modules":
			return RoleVendor
		case "testdata", "fixtures", "__fixtures__":
			return RoleTestdata
		case "test", "tests", "__tests__", "spec":
			return RoleTest
		}
	}
	base := parts[len(parts)-1]
	stem := strings.TrimSuffix(base, filepath.Ext(base))
	switch {
	case strings.HasSuffix(base, "_test.go"),
		strings.HasPrefix(base, "test_") && strings.HasSuffix(base, ".py"),
		strings.HasSuffix(stem, "_test") && filepath.Ext(base) != "",
		strings.HasSuffix(stem, ".test") || strings.HasSuffix(stem, ".spec"),
		strings.HasSuffix(stem, "Test") && filepath.Ext(base) == ".java":
		return RoleTest
	}
	return ""
}
