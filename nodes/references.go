package nodes

import (
	"regexp"
	"slices"
	"strings"
)

// Go code and its documentation name what they rely on: a function's body
// falls back to a constant ("quality := DefaultQuality"), its doc links to
// one ("registers an HTTP handler … on [DefaultRPCPath]"), a field's doc
// says what is used when it is zero ("If zero, DefaultMaxHeaderBytes is
// used"). The value of that constant, declared in another passage, is the
// answer to "which path", "which quality", "what limit". And a
// declaration's doc may link back to the one asked about ("ErrNotFat is
// returned from [NewFatFile] or [OpenFat]"): what the asked function
// returns when it fails.

// exportedName finds the exported Go names a text refers to: a doc link's
// name ("[DefaultRPCPath]", "[Server.MaxHeaderBytes]") or a capitalised
// identifier of two or more letters.
var exportedName = regexp.MustCompile(`\b[A-Z][A-Za-z0-9_]*[a-z0-9_][A-Za-z0-9_]*\b`)

// docLink finds a Go doc link: "[Name]" or "[pkg.Name]".
var docLink = regexp.MustCompile(`\[(?:[a-z][a-z0-9/]*\.)?([A-Z][A-Za-z0-9_]*(?:\.[A-Z][A-Za-z0-9_]*)?)\]`)

// valueDeclarations are the names a code unit declares with a value:
// "const DefaultQuality = 75", "var ErrNotFat = &FormatError{…}", the
// entries "DefaultRPCPath = "/_goRPC_"" of a const or var block.
func valueDeclarations(code string) []string {
	var out []string
	block := false
	for _, line := range strings.Split(code, "\n") {
		t := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(t, "//") || t == "":
			continue
		case t == "const (" || t == "var (":
			block = true
			continue
		case t == ")":
			block = false
			continue
		}
		rest, ok := strings.CutPrefix(t, "const ")
		if !ok {
			rest, ok = strings.CutPrefix(t, "var ")
		}
		if !ok && !block {
			continue
		}
		name := identPrefix(rest)
		if name == "" || !strings.Contains(rest, "=") || strings.Contains(rest[:strings.Index(rest, "=")], "(") {
			continue
		}
		out = append(out, name)
	}
	return out
}

// referencedNames are the exported names a quoted code unit refers to,
// besides those it declares itself.
func referencedNames(code string) map[string]bool {
	own := valueDeclarations(code)
	out := map[string]bool{}
	for _, n := range exportedName.FindAllString(code, -1) {
		if !slices.Contains(own, n) {
			out[n] = true
		}
	}
	return out
}

// linksTo reports whether a unit's doc comment links to one of names
// ("[OpenFat]" for OpenFat).
func linksTo(code string, names map[string]bool) bool {
	for _, m := range docLink.FindAllStringSubmatch(code, -1) {
		if names[strings.ToLower(lastPart(m[1]))] {
			return true
		}
	}
	return false
}

// references is the last step of an answer that quotes the code asked
// about: a constant or variable another kept passage declares with its
// value, which a quoted unit refers to by name, follows it; or, failing
// that, a value declaration whose doc links to the name asked about. One
// unit, past the limit if need be: the value is what the quoted code
// leaves out.
func (s *selection) references(cands []candidate) {
	if len(s.chosen) == 0 || !s.chosen[0].declares || !s.chosen[0].unit.code {
		return
	}
	refs := map[string]bool{}
	for _, c := range s.chosen {
		if c.unit.code {
			for n := range referencedNames(c.text) {
				refs[n] = true
			}
		}
	}
	asked := map[string]bool{}
	for _, a := range s.asked {
		asked[strings.ToLower(a)] = true
	}
	forward, backward := -1, -1
	for i, c := range cands {
		if !c.unit.code || !c.source || c.test || s.isChosen(c) || s.quoted(c.text) {
			continue
		}
		decl := valueDeclarations(c.text)
		if len(decl) == 0 {
			continue
		}
		if forward < 0 && slices.ContainsFunc(decl, func(n string) bool { return refs[n] }) {
			forward = i
		}
		if backward < 0 && linksTo(c.text, asked) {
			backward = i
		}
	}
	switch {
	case forward >= 0:
		s.take(cands[forward])
	case backward >= 0:
		s.take(cands[backward])
	}
}
