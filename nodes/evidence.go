package nodes

import (
	"strings"
	"unicode"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/internal/text"
)

// Evidence measures how well hits match a query, from the text alone, so it
// means the same for every store and scoring (BM25, cosine, RRF).
type Evidence struct {
	// Top is the weighted share of the query's content terms found in the
	// best-matching single hit (title and text).
	Top float64
	// Union is the weighted share found in the first few hits together:
	// multi-hop questions spread over two passages.
	Union float64
	// Title is true when a hit's title words all occur in the query: the
	// question names the document.
	Title bool
	// Named is true when one of the query's specific terms is the name of
	// a hit's file or of the folder that holds it: "dpkg" for
	// ".../doc/dpkg/copyright", "pg_dump" for ".../man1/pg_dump.1.gz". The
	// files hold something called what the question asks about.
	Named bool
	// Missing lists the heaviest query terms no hit contains;
	// MissingSpecific those of them that are not everyday words (see
	// term.specific): names, codes and rare words.
	Missing, MissingSpecific []string
	// Specific is the summed weight of the matched terms that are not
	// everyday words: how much of the match is names, codes and rare words.
	Specific float64
	// Score is the top hit's store score, for the trace.
	Score float64
}

// Strength folds the evidence into one number in [0,1].
func (e Evidence) Strength() float64 {
	s := 0.6*e.Top + 0.4*e.Union
	if e.Title {
		s += 0.15
	}
	if s > 1 {
		s = 1
	}
	return s
}

// measureEvidence compares the query's content terms with the first n hits.
func measureEvidence(terms []term, hits []graphrag.Hit, n int) Evidence {
	return measureWith(terms, hits, n, nil)
}

// measureQuestion is measureEvidence for a question's own terms: a
// package-qualified name in it ("strings.Reverse") is found in a hit that
// speaks of it (qualifiedName.heldBy), not only where it is written out,
// since a package's own files name it unqualified.
//
// A question that asks who made a work ("who wrote fooutil") is asked in
// words its answer seldom holds: a copyright stanza or an authors line
// names the maker ("Copyright: 2001, Ann Smith", "Author: …") without
// "wrote". The asking words (authorWords) are found in a hit that names
// someone as the one who did something (namesAgent).
func measureQuestion(question string, terms []term, hits []graphrag.Hit, n int) Evidence {
	qs := map[string]qualifiedName{}
	for _, q := range qualifiedNames(question) {
		qs[q.key()] = q
	}
	author := asksForName(question) && asksAuthor(question)
	if len(qs) == 0 && !author {
		return measureWith(terms, hits, n, nil)
	}
	return measureWith(terms, hits, n, func(t term, h graphrag.Hit) bool {
		if q, ok := qs[t.Word]; ok {
			return q.heldBy(h)
		}
		return author && authorWords[t.Word] && namesSomeone(h.Chunk.Text) && namesAgent(h.Chunk.Text)
	})
}

// measureWith is measureEvidence; also (when not nil) counts a term found
// in a hit when it says so.
func measureWith(terms []term, hits []graphrag.Hit, n int, also func(term, graphrag.Hit) bool) Evidence {
	var ev Evidence
	if len(hits) == 0 || len(terms) == 0 {
		for _, t := range terms {
			ev.Missing = append(ev.Missing, t.Word)
			if t.specific() {
				ev.MissingSpecific = append(ev.MissingSpecific, t.Word)
			}
		}
		return ev
	}
	if n > len(hits) {
		n = len(hits)
	}
	ev.Score = hits[0].Score
	var total float64
	for _, t := range terms {
		total += t.Weight
	}
	found := make([]bool, len(terms))
	queryStems := make(map[string]bool, len(terms))
	for _, t := range terms {
		queryStems[t.Stem] = true
	}
	for _, h := range hits[:n] {
		words := hitWordsOf(h)
		file, folder := pathNames(h.Source.Path)
		var parts []string // namingParts, split when a word first needs them
		inFolder := func(w string) bool {
			if len(w) < 5 {
				return false
			}
			if parts == nil {
				parts = namingParts(h.Source.Path)
			}
			return folderIn(parts, w)
		}
		var got float64
		for i, t := range terms {
			if words.has(t) || t.Word == file || t.Word == folder || inFolder(t.Word) || also != nil && also(t, h) {
				got += t.Weight
				found[i] = true
			}
		}
		if c := got / total; c > ev.Top {
			ev.Top = c
		}
		if titleInQuery(h.Source.Title, queryStems) {
			ev.Title = true
		}
		if !ev.Named && namedByPath(h.Source.Path, terms) {
			ev.Named = true
		}
	}
	var got float64
	for i, t := range terms {
		if found[i] {
			got += t.Weight
			if t.specific() {
				ev.Specific += t.Weight
			}
		} else {
			ev.Missing = append(ev.Missing, t.Word)
			if t.specific() {
				ev.MissingSpecific = append(ev.MissingSpecific, t.Word)
			}
		}
	}
	ev.Union = got / total
	return ev
}

// hitWords are the words of a hit as evidence finds a question's terms
// in them: the stems of its text's and its title's words, the title also
// split at dots, hyphens and underscores, as a file name joins its words
// ("README.Debian" is about Debian, "fooutil-notes.txt" about fooutil);
// the words its text says by negating their opposites ("fail" for "will
// not succeed": negatedMeanings); and the loose stems of them all (see
// has).
type hitWords struct {
	stems, loose map[string]bool
}

// notIdentRune reports whether r cannot be part of an identifier.
func notIdentRune(r rune) bool {
	return !(r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r))
}

func hitWordsOf(h graphrag.Hit) hitWords {
	w := hitWords{stems: map[string]bool{}, loose: map[string]bool{}}
	add := func(lower string) {
		st := stem(lower)
		w.stems[st] = true
		w.loose[looseStem(st)] = true
	}
	// A hyphenated word of the hit is not split: "fooutil-dev" in a list
	// of packages a changelog's fix breaks names fooutil only in passing.
	for _, t := range tokenize(h.Source.Title + " \n " + h.Chunk.Text) {
		w.stems[t.Stem] = true
		w.loose[looseStem(t.Lower)] = true
	}
	// A field's label is split, though (fieldLine): "Upstream-Contact:"
	// names the upstream contact, as "Files-Excluded:" the files excluded.
	for line := range strings.Lines(h.Chunk.Text) {
		m := fieldLine.FindStringSubmatch(line)
		if m == nil || !strings.Contains(m[1], "-") {
			continue
		}
		for _, part := range strings.Split(m[1], "-") {
			if len(part) > 1 {
				add(strings.ToLower(part))
			}
		}
	}
	for _, word := range text.Words(strings.ReplaceAll(h.Source.Title, "_", " ")) {
		add(word)
	}
	for _, word := range negatedMeanings(h.Chunk.Text) {
		add(word)
	}
	if isCodeHit(h) {
		// Code names what it declares in identifiers: the chunk whose
		// symbol is strconv.ParseFloat or goexperiment.GoroutineLeakProfile
		// speaks of parsing a float or of a goroutine leak. Only what it
		// exports, and its package, count: names used in its body, or an
		// unexported test table named after a place ("norwayTable"), do not
		// make a chunk about the place.
		for i, f := range strings.FieldsFunc(h.Chunk.Symbol, notIdentRune) {
			if len(f) < 2 || i > 0 && !unicode.IsUpper(rune(f[0])) {
				continue
			}
			words := text.IdentWords(f)
			if words == nil {
				words = []string{f} // one word: "strconv", "Walk"
			}
			for _, word := range words {
				if len(word) > 1 {
					add(strings.ToLower(word))
				}
			}
		}
	}
	// A quoted punctuation character is the word that names it: "names
	// beginning with '.'" speaks of a dot.
	if hasQuote(h.Chunk.Text) {
		for _, name := range quotedPunctuation(h.Chunk.Text) {
			add(name)
		}
	}
	return w
}

// has reports whether the hit holds a question's term: by its stem, or
// loosely, as an answer's sentence is matched with its question
// ("deleted" and "deletes", "configured" and "configure"), or by another
// word of its meaning (sameMeaning: "skips" in "excluded"); a hyphenated
// term also when the hit holds each of its parts, as a passage writes two
// forms of a command at once ("deep-clean" in "zorp {quick,deep}-clean").
func (w hitWords) has(t term) bool {
	if w.stems[t.Stem] || w.loose[looseStem(t.Word)] || sameMeaningIn(looseStem(t.Word), w.loose) {
		return true
	}
	if !strings.Contains(t.Word, "-") {
		return false
	}
	parts := 0
	for _, part := range strings.Split(t.Word, "-") {
		if part == "" {
			continue
		}
		if !w.stems[stem(part)] && !w.loose[looseStem(part)] {
			return false
		}
		parts++
	}
	return parts > 1
}

// namedByPath reports whether a specific term is the name of the file at
// path (without its extensions) or of the folder that holds it. Folders
// further up ("usr", "share", "src") are where files are kept, not what
// they are about.
func namedByPath(path string, terms []term) bool {
	file, folder := pathNames(path)
	for _, t := range terms {
		if t.specific() && (t.Word == file || t.Word == folder) {
			return true
		}
	}
	return false
}

// pathNames are the names a file at path goes by, lower-cased: its own
// name without its extensions, and the name of the folder that holds it
// (".../doc/zorpd/copyright": "copyright", "zorpd"; folder is "" for a
// bare file name). A question that writes one of them names the file.
func pathNames(path string) (file, folder string) {
	const seps = `/\`
	p := strings.TrimRight(path, seps)
	i := strings.LastIndexAny(p, seps)
	file = strings.ToLower(p[i+1:])
	if j := strings.IndexByte(file, '.'); j > 0 {
		file = file[:j]
	}
	if i < 0 {
		return file, ""
	}
	rest := strings.TrimRight(p[:i], seps)
	return file, strings.ToLower(rest[strings.LastIndexAny(rest, seps)+1:])
}

// titleInQuery reports whether every content word of a title occurs in the
// query (titles of one stop word or none do not count).
func titleInQuery(title string, queryStems map[string]bool) bool {
	terms := contentTerms(title)
	if len(terms) == 0 {
		return false
	}
	for _, t := range terms {
		if !queryStems[t.Stem] {
			return false
		}
	}
	return true
}

// specific reports whether a term makes a question specific: a name, a
// code or a word that is not an everyday one (contentTerms weighs
// generalWords under 1, everything else 1 or more).
func (t term) specific() bool { return t.Weight >= 1 }
