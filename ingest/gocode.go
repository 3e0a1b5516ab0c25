package ingest

import (
	"go/ast"
	"go/build/constraint"
	"go/parser"
	"go/token"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"
)

// generatedGo is Go's marker of a generated file (go help generate).
var generatedGo = regexp.MustCompile(`(?m)^// Code generated .* DO NOT EDIT\.$`)

// bundledGo finds, in a generated file's marker, the bundle tool
// (golang.org/x/tools/cmd/bundle), whose output is another module's
// package copied into one file: net/http's h2_bundle.go is
// golang.org/x/net/http2.
var bundledGo = regexp.MustCompile(`\bcmd/bundle\b`)

// generatedRole is the role of a Go file by the marker of generated code
// its header holds (generatedGo), "" for none. A bundle is a vendored
// copy (RoleVendor), however it was made; other generated code
// (RoleGenerated) is often the only place its package's code is written
// (sort's zsortfunc.go, strconv's isprint.go, go/types).
func generatedRole(marker string) string {
	switch {
	case marker == "":
		return ""
	case bundledGo.MatchString(marker):
		return RoleVendor
	}
	return RoleGenerated
}

// goSections cuts Go source into one section per top-level declaration
// with its doc comment, the way go/doc sees a package: Symbol is
// "pkg.Name" ("pkg.Type.Method" for a method), Heading the declaration's
// signature, and lines are the file's. The package doc comment is a section
// of its own, and so is each comment that explains the file without
// documenting a declaration (looseComments); a licence header and import
// blocks are left out: they answer no question and crowd the ones that
// do. A file's build constraint ("//go:build valgrind && linux") is a
// section of its own, headed "build constraint": it says on which systems,
// or with which build tag, the file's code exists at all
// (buildConstraint). A grouped const, var or type declaration longer
// than size is cut between its specs, each part named by its first spec.
// role is what the file's marker of generated code says of it
// (generatedRole), "" for hand-written code. ok is false when the file
// does not parse.
func goSections(src []byte, size int) (secs []Section, role string, ok bool) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, "", false
	}
	tf := fset.File(f.Pos())
	off := func(p token.Pos) int { return tf.Offset(p) }
	line := func(p token.Pos) int { return tf.Line(p) }
	// lineEnd extends an offset to the end of its line, so a trailing
	// comment (StatusTeapot = 418 // RFC 9110) stays with its code.
	lineEnd := func(o int) int {
		if i := strings.IndexByte(string(src[o:min(len(src), o+4096)]), '\n'); i >= 0 {
			return o + i
		}
		return len(src)
	}
	lineStart := func(o int) int {
		for o > 0 && src[o-1] != '\n' {
			o--
		}
		return o
	}
	pkg := f.Name.Name
	add := func(from, to token.Pos, heading, symbol, kind string) {
		a, b := lineStart(off(from)), lineEnd(off(to))
		text := strings.TrimRight(string(src[a:b]), " \t\r\n")
		if strings.TrimSpace(text) == "" {
			return
		}
		secs = append(secs, Section{Text: text, Heading: heading, Symbol: symbol, Kind: kind, StartLine: line(from)})
	}
	if c := buildConstraint(f); c != nil {
		add(c.Pos(), c.End(), "build constraint", pkg, KindBuild)
	}
	if f.Doc != nil {
		add(f.Doc.Pos(), f.Name.End(), "package "+pkg, pkg, KindPackage)
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			from := d.Pos()
			if d.Doc != nil {
				from = d.Doc.Pos()
			}
			kind, sym := "func", pkg+"."+d.Name.Name
			if d.Recv != nil && len(d.Recv.List) > 0 {
				kind = "method"
				if r := recvName(d.Recv.List[0].Type); r != "" {
					sym = pkg + "." + r + "." + d.Name.Name
				}
			}
			sigEnd := d.End()
			if d.Body != nil {
				sigEnd = d.Body.Lbrace
			}
			add(from, d.End(), oneLine(string(src[off(d.Pos()):off(sigEnd)])), sym, kind)
		case *ast.GenDecl:
			if d.Tok == token.IMPORT || len(d.Specs) == 0 {
				continue
			}
			kind := d.Tok.String()
			from := d.Pos()
			if d.Doc != nil {
				from = d.Doc.Pos()
			}
			names := specNames(d.Specs)
			heading := kind + " " + names[0]
			if d.Lparen.IsValid() && len(names) > 1 {
				heading = kind + " (" + names[0] + " … " + names[len(names)-1] + ")"
			} else if ts, ok := d.Specs[0].(*ast.TypeSpec); ok && !d.Lparen.IsValid() {
				heading = oneLine(strings.TrimSuffix(strings.TrimSpace(firstLine(string(src[off(d.Pos()):off(ts.End())]))), "{"))
			}
			text := string(src[lineStart(off(from)):lineEnd(off(d.End()))])
			if !d.Lparen.IsValid() || len(d.Specs) < 2 || utf8.RuneCountInString(text) <= size {
				add(from, d.End(), heading, pkg+"."+names[0], kind)
				continue
			}
			// Cut a long group between specs: each part starts at a spec
			// (with its doc comment) and runs while it fits.
			first := d.Specs[0].Pos()
			if doc := specDoc(d.Specs[0]); doc != nil {
				first = doc.Pos()
			}
			partFrom, partSpec := from, 0
			n := utf8.RuneCount(src[lineStart(off(from)):lineStart(off(first))])
			for i, s := range d.Specs {
				sFrom := s.Pos()
				if doc := specDoc(s); doc != nil {
					sFrom = doc.Pos()
				}
				sLen := utf8.RuneCount(src[lineStart(off(sFrom)):lineEnd(off(s.End()))]) + 1
				if i > partSpec && n+sLen > size {
					add(partFrom, d.Specs[i-1].End(), heading, pkg+"."+specNames(d.Specs[partSpec : partSpec+1])[0], kind)
					partFrom, partSpec, n = sFrom, i, 0
				}
				n += sLen
			}
			add(partFrom, d.End(), heading, pkg+"."+specNames(d.Specs[partSpec : partSpec+1])[0], kind)
		}
	}
	// A comment that documents no declaration explains the file instead:
	// its header ("Quill spooler (QS). … It never reorders a sealed
	// stack."), or a note between declarations on how the code works.
	// Each is a section of its own, in the file's order.
	if loose := looseComments(f); len(loose) > 0 {
		for _, c := range loose {
			for _, part := range ownParts(c) {
				g := &ast.CommentGroup{List: part}
				add(g.Pos(), g.End(), oneLine(firstLine(g.Text())), pkg, KindComment)
			}
		}
		slices.SortStableFunc(secs, func(a, b Section) int { return a.StartLine - b.StartLine })
	}
	if len(secs) == 0 && f.Doc == nil {
		// A file of imports only (or nothing but a licence): its package
		// clause.
		add(f.Package, f.Name.End(), "package "+pkg, pkg, KindPackage)
	}
	return secs, generatedRole(string(generatedGo.Find(src[:min(len(src), off(f.Package))]))), true
}

// buildConstraint is the "//go:build" line of a file, above its package
// clause, or nil. "//go:build ignore" is nil too: by convention it keeps a
// program run on its own (a generator) out of every build, and says
// nothing of the systems or tags the package is built for.
func buildConstraint(f *ast.File) *ast.Comment {
	for _, g := range f.Comments {
		if g.Pos() >= f.Package {
			break
		}
		for _, c := range g.List {
			if constraint.IsGoBuild(c.Text) {
				if expr, err := constraint.Parse(c.Text); err == nil && expr.String() == "ignore" {
					return nil
				}
				return c
			}
		}
	}
	return nil
}

// minNoteWords is the fewest words of a loose comment worth a section:
// shorter ones mark a group ("Helpers.", "Errors") or leave a TODO, and
// answer nothing.
const minNoteWords = 6

// looseComments are the comments of a Go file that belong to no
// declaration (neither its doc nor inside it), less the package doc,
// build constraints, directives and a generated-code marker, and those
// shorter than minNoteWords words. A licence or copyright notice in them
// is left out by ownParts.
func looseComments(f *ast.File) []*ast.CommentGroup {
	docs := map[*ast.CommentGroup]bool{f.Doc: true}
	type span struct{ from, to token.Pos }
	spans := make([]span, 0, len(f.Decls))
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			docs[d.Doc] = true
		case *ast.GenDecl:
			docs[d.Doc] = true
		}
		spans = append(spans, span{d.Pos(), d.End()})
	}
	var out []*ast.CommentGroup
	for _, c := range f.Comments {
		// The first declaration ending after the comment starts: the
		// comment is inside it when that declaration starts before it.
		i, _ := slices.BinarySearchFunc(spans, c.Pos(), func(s span, p token.Pos) int { return int(s.to - p) })
		if docs[c] || i < len(spans) && spans[i].from <= c.Pos() {
			continue
		}
		t := c.Text() // without directives (//go:build, //go:generate …)
		if len(strings.Fields(t)) < minNoteWords || plusBuildOnly(t) || generatedGo.MatchString("// "+t) {
			continue
		}
		out = append(out, c)
	}
	return out
}

// plusBuildOnly reports whether a comment's text is an old-style build
// constraint, "+build" lines alone (go/ast keeps them as text: they are
// no directive). A note that speaks of one ("to enable Zap, delete
// the "+build ignore" line above") explains the file, and is kept.
func plusBuildOnly(t string) bool {
	for line := range strings.Lines(t) {
		if l := strings.TrimSpace(line); l != "" && !strings.HasPrefix(l, "+build ") {
			return false
		}
	}
	return true
}

// recvName is the receiver's type name without pointer or type parameters.
func recvName(e ast.Expr) string {
	for {
		switch t := e.(type) {
		case *ast.StarExpr:
			e = t.X
		case *ast.IndexExpr:
			e = t.X
		case *ast.IndexListExpr:
			e = t.X
		case *ast.ParenExpr:
			e = t.X
		case *ast.Ident:
			return t.Name
		default:
			return ""
		}
	}
}

// specNames lists the names a declaration's specs declare, "_" for none.
func specNames(specs []ast.Spec) []string {
	var out []string
	for _, s := range specs {
		switch s := s.(type) {
		case *ast.TypeSpec:
			out = append(out, s.Name.Name)
		case *ast.ValueSpec:
			for _, n := range s.Names {
				out = append(out, n.Name)
			}
		}
	}
	if len(out) == 0 {
		out = append(out, "_")
	}
	return out
}

func specDoc(s ast.Spec) *ast.CommentGroup {
	switch s := s.(type) {
	case *ast.TypeSpec:
		return s.Doc
	case *ast.ValueSpec:
		return s.Doc
	}
	return nil
}

// oneLine collapses white space: a signature over several lines as one.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// ownParts are the runs of a loose comment's lines that are the file's
// own account, without the licence or copyright notice it holds (see
// licenceHeader): a comment that opens with one is all notice (the
// file's licence header); a note on where the code was ported from that
// quotes the original's notice ("The code below is from FreeBSD's
// e_frob.c and came with this notice: … Copyright (C) 1993 …") keeps its
// lines before the notice's paragraph, and after it only when the notice
// is fenced off ("=====" lines above and below it): what follows an
// unfenced notice is the notice's. Runs shorter than minNoteWords words
// are left out; a /* */ comment is one line, all notice when it holds
// one.
func ownParts(c *ast.CommentGroup) [][]*ast.Comment {
	lines := c.List
	text := func(l *ast.Comment) string { return strings.TrimSpace(strings.TrimPrefix(l.Text, "//")) }
	notice := slices.IndexFunc(lines, func(l *ast.Comment) bool { return licenceHeader.MatchString(l.Text) })
	var parts [][]*ast.Comment
	keep := func(run []*ast.Comment) {
		words := 0
		for _, l := range run {
			words += len(strings.Fields(text(l)))
		}
		if words >= minNoteWords {
			parts = append(parts, run)
		}
	}
	if notice < 0 {
		keep(lines)
		return parts
	}
	from := notice // the notice's paragraph starts after a blank or fence line
	for from > 0 && text(lines[from-1]) != "" && !noticeFence.MatchString(text(lines[from-1])) {
		from--
	}
	fenced := from > 0 && noticeFence.MatchString(text(lines[from-1]))
	if fenced {
		keep(lines[:from-1])
	} else {
		keep(lines[:from])
	}
	if fenced {
		for to := notice + 1; to < len(lines); to++ {
			if noticeFence.MatchString(text(lines[to])) {
				keep(lines[to+1:])
				break
			}
		}
	}
	return parts
}

// noticeFence finds a line that fences a notice off from the text around
// it: "=====", "-----", "*****".
var noticeFence = regexp.MustCompile(`^(={5,}|-{5,}|\*{5,})$`)
