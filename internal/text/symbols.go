package text

import "strings"

// Symbols are the identifiers a query names, as the stores' symbol boost
// reads them: package-qualified ones as written ("sync.Once",
// "context.WithCancel") and bare names that can only be code: CamelCase
// with a capital inside ("WithCancel"), snake_case ("unique_violation"),
// or a capital with a digit ("RFC3339"). Names hold only ASCII letters,
// digits, "_" and one ".". Both lists are non-nil, in the query's order.
func Symbols(query string) (qualified, names []string) {
	qualified, names = []string{}, []string{}
	for _, f := range strings.FieldsFunc(query, func(r rune) bool {
		return !(r == '_' || r == '.' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	}) {
		f = strings.Trim(f, "._")
		if pkg, name, ok := strings.Cut(f, "."); ok && IsPackageName(pkg) && name != "" && name[0] >= 'A' && name[0] <= 'Z' && !strings.Contains(name, ".") {
			qualified = append(qualified, f)
			continue
		}
		if len(f) >= 3 && !strings.Contains(f, ".") && (strings.Contains(f, "_") || innerCapital(f) || capitalDigit(f)) {
			names = append(names, f)
		}
	}
	return qualified, names
}

// IsPackageName reports whether s can be a Go package name as code writes
// it before a dot: lower-case ASCII letters, digits and underscores.
func IsPackageName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isLowerIdent(s[i]) {
			return false
		}
	}
	return true
}

// capitalDigit reports whether w holds a capital and a digit: "RFC3339",
// "HTTP2".
func capitalDigit(w string) bool {
	return strings.ContainsAny(w, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") && strings.ContainsAny(w, "0123456789")
}

// innerCapital reports whether w has a capital after a lower-case letter:
// "WithCancel", "newReader".
func innerCapital(w string) bool {
	lower := false
	for i := 0; i < len(w); i++ {
		switch c := w[i]; {
		case c >= 'a' && c <= 'z':
			lower = true
		case c >= 'A' && c <= 'Z' && lower:
			return true
		}
	}
	return false
}

// SymbolTitle is what a store indexes as a chunk's title: the document's
// title, and the symbol a code chunk declares, so a question naming
// "strings.NewReader" finds the declaration with the title's weight. The
// symbol is written as words ("strings NewReader": PostgreSQL's parser
// would read "strings.NewReader" as one host-name token), followed by the
// words of its last name ("BlockSize": "Block Size") for a question in
// words ("the block size of SHA-256").
func SymbolTitle(title, symbol string) string {
	if symbol == "" {
		return title
	}
	t := title + " " + strings.ReplaceAll(symbol, ".", " ")
	if words := IdentWords(symbol[strings.LastIndexByte(symbol, '.')+1:]); words != nil {
		t += " " + strings.Join(words, " ")
	}
	return t
}
