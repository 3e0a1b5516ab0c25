package nodes

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/graphrag/graphrag"
)

// evaluate is the "evaluate" node: corrective retrieval. It keeps the hits
// worth reading, judges retrieval good, poor or empty, and on poor
// retrieval with budget left refines the query for another pass.
func (p *pipeline) evaluate(ctx context.Context, s State) (State, error) {
	s.Kept, s.Evidence = nil, nil
	switch {
	case s.Plan.Route == graphrag.RouteDirect:
		s.Retrieval, s.Measured = RetrievalGood, "direct route: nothing to retrieve"
		return s, nil
	case s.ToolText != "":
		s.Kept = s.Hits
		s.Retrieval, s.Measured = RetrievalGood, "the "+string(s.Plan.Route)+" route answered"
		return s, nil
	case s.Plan.Route == graphrag.RouteWeb:
		s.Kept = s.Hits[:min(len(s.Hits), p.opts.MaxKept)]
		s.Retrieval = RetrievalGood
		if len(s.Kept) == 0 {
			s.Retrieval = RetrievalEmpty
		}
		s.Measured = fmt.Sprintf("web search returned %d results", len(s.Hits))
		return s, nil
	}

	terms := evidenceTerms(s.question())
	ev := measureQuestion(s.question(), terms, s.Hits, evidenceHits)
	strength := ev.Strength()
	if len(s.Hits) == 0 {
		strength = 0
	}
	// A refined search is fused with the best earlier one by reciprocal
	// rank fusion (what both find rises); the fused list replaces the
	// earlier one only when it matches the question better.
	if s.bestHits != nil {
		fused := fuseRRF(s.bestHits, s.Hits, max(p.opts.K, len(s.bestHits)))
		fev := measureQuestion(s.question(), terms, fused, evidenceHits)
		if fev.Strength() > s.bestStrength {
			s.Hits, ev, strength, s.fused = fused, fev, fev.Strength(), true
		} else {
			s.Hits, s.SearchMode, strength, s.fused = s.bestHits, s.bestMode, s.bestStrength, s.bestFused
			s.note("evaluate: the refined search did not match the question better (%.2f ≤ %.2f): kept the earlier hits", fev.Strength(), s.bestStrength)
			ev = measureQuestion(s.question(), terms, s.Hits, evidenceHits)
		}
	}
	s.bestHits, s.bestStrength, s.bestMode, s.bestFused = s.Hits, strength, s.SearchMode, s.fused
	s.Strength = strength

	graded := false
	if p.deps.Grader != nil && len(s.Hits) > 0 && !s.modelDown {
		g, err := p.deps.Grader.Grade(ctx, s.question(), s.Hits)
		s.addUsage("evaluate", g.Usage)
		switch {
		case err != nil:
			s.modelFailed(ctx, err, "evaluate: grader failed, kept hits by score and term coverage: %v", err)
		default:
			// Facts point into the hits the grader saw; the writer numbers
			// the kept hits, so renumber them (a fact from a hit the grader
			// did not list as relevant brings its hit along).
			at := make(map[int]int)
			for _, i := range g.Relevant {
				if _, dup := at[i]; !dup && i >= 0 && i < len(s.Hits) {
					at[i] = len(s.Kept)
					s.Kept = append(s.Kept, s.Hits[i])
				}
			}
			for _, f := range g.Facts {
				if f.Hit < 0 || f.Hit >= len(s.Hits) {
					continue
				}
				if _, ok := at[f.Hit]; !ok {
					at[f.Hit] = len(s.Kept)
					s.Kept = append(s.Kept, s.Hits[f.Hit])
				}
				s.Evidence = append(s.Evidence, graphrag.Fact{Text: f.Text, Hit: at[f.Hit]})
			}
			graded = true
			switch {
			case len(s.Kept) == 0:
				s.Retrieval = RetrievalEmpty
			case len(s.Kept) > 0 && strength < p.opts.GoodEvidence && len(g.Facts) == 0:
				s.Retrieval = RetrievalPoor
			default:
				s.Retrieval = RetrievalGood
			}
		}
	}
	if !graded {
		mode := s.SearchMode
		if s.fused {
			mode = graphrag.ModeHybrid // RRF scores
		}
		s.Kept = p.keep(s.Hits, mode, terms)
		s.Evidence = facts(s.Kept, terms)
		switch {
		case len(s.Hits) == 0 || strength < p.opts.EmptyEvidence || ev.Specific < p.opts.MinSpecific/2 && strength < p.opts.GoodEvidence:
			s.Retrieval = RetrievalEmpty
		case strength < p.opts.GoodEvidence:
			s.Retrieval = RetrievalPoor
		default:
			s.Retrieval = RetrievalGood
		}
	}
	// The question's exact names, versions and file names overrule the
	// overall score: see gradeByConstraints.
	kept, r, constrained := gradeByConstraints(s.question(), s.Hits, s.Kept, s.Retrieval, p.opts.MaxKept)
	if r == RetrievalEmpty && s.Retrieval != RetrievalEmpty {
		if missing := matchConstraints(s.question(), s.Hits).Missing; len(missing) > 0 {
			// An exact name no passage found holds may stand in another
			// passage of a document found: a README names Linux-PAM in
			// its first lines and says which docbook-xsl it needs in
			// its last. Those passages join the hits the names are
			// looked for in.
			if more := p.namesInHitDocuments(ctx, &s, missing); len(more) > 0 {
				kept, r, constrained = gradeByConstraints(s.question(), append(slices.Clip(s.Hits), more...), s.Kept, s.Retrieval, p.opts.MaxKept)
			}
		}
	}
	if !graded {
		s.Kept, s.Evidence = kept, facts(kept, terms)
	}
	s.Retrieval = r
	measure := fmt.Sprintf("evidence %.2f (top %.2f, union %.2f, specific %.1f), kept %d of %d", strength, ev.Top, ev.Union, ev.Specific, len(s.Kept), len(s.Hits))
	if constrained != "" {
		measure += "; " + constrained
	}
	if len(ev.Missing) > 0 {
		measure += fmt.Sprintf(", missing %s", strings.Join(ev.Missing[:min(4, len(ev.Missing))], " "))
	}

	s.Measured = measure
	if s.Retrieval != RetrievalEmpty {
		// The README or changelog of a package no file is of: whatever
		// the hits say, they are another package's.
		pkgs, files := p.packageDocumentsMissing(ctx, &s)
		if len(pkgs) > 0 {
			s.Retrieval = RetrievalEmpty
			s.Measured += "; no file is of the package " + strings.Join(pkgs, ", ")
			return s, nil
		}
		// Nor is a file Debian names alike in every package ("zorpd's
		// README.Debian") that the package's folder does not hold: its
		// other files say nothing of what that file would.
		if len(files) > 0 {
			s.Retrieval = RetrievalEmpty
			s.Measured += "; no file is " + strings.Join(files, ", ")
			return s, nil
		}
	}
	if s.Retrieval == RetrievalGood {
		// A good match of the question's other words does not answer
		// about a thing the files name only in passing: fooserver's
		// listening port over a manual that lists listening ports, and a
		// changelog that names fooserver once (see unheldWords).
		best := s.Hits[:min(len(s.Hits), evidenceHits)]
		nowhere, passing := p.unheldWords(ctx, &s, append(ev.MissingSpecific, passingWords(terms, best)...), best)
		passing = p.passingStoreWide(ctx, &s, passing)
		if len(passing) > 0 {
			s.Retrieval = RetrievalEmpty
			s.Measured += "; the files name " + strings.Join(passing, ", ") + " only in passing"
		} else if asked := p.askedNowhere(ctx, &s, ev.MissingSpecific, nowhere); len(asked) > 0 {
			// Nor about a thing no file anywhere names, written as a name
			// in the sentence that asks ("does zorpterm draw graphics
			// through Kitty" over a README that never says Kitty), or a
			// compound with a part no file holds (unheldCompounds): the
			// question's other words match, what it asks about is not
			// there. Not a misspelling of a word the best hits hold
			// (nearMiss), nor a plain word or the asker's context
			// (askedIn).
			s.Retrieval = RetrievalEmpty
			s.Measured += "; no file holds " + strings.Join(asked, ", ")
		}
		if s.Retrieval == RetrievalGood && p.deps.Searcher != nil {
			kinds := askedKinds(s.question())
			s.Kept = p.withAskedKind(ctx, &s, kinds)
			s.Kept = p.withAskedLines(ctx, &s, kinds)
			s.Kept = p.withAskedStanza(ctx, &s)
		}
		return s, nil
	}
	if m := matchConstraints(s.question(), s.Hits); len(s.Hits) > 0 && (len(m.Missing) > 0 || len(m.Apart) > 0) {
		// An exact name, version or option of the question that no hit
		// holds (or whose subject's passages do not hold the names
		// qualifying it):
		// a refined query adds words of those hits, not the missing name.
		return s, nil
	}
	if absent := p.absentWords(ctx, &s, ev.MissingSpecific, s.Hits[:min(len(s.Hits), evidenceHits)]); len(absent) > 0 {
		// What the question is about is nowhere in the files (the default
		// port of redis over files that never say redis, or of
		// zorpd-frobber: unheldCompounds): the best hits are about
		// something else, and a refined query (the question plus their
		// words) cannot find it.
		s.Retrieval = RetrievalEmpty
		s.Measured += "; no file holds " + strings.Join(absent, ", ")
		return s, nil
	}
	if s.Budget.Retrieve > 0 && len(s.Hits) > 0 {
		refined := p.refine(ctx, &s, terms)
		if refined != "" && !strings.EqualFold(refined, s.Plan.Query) {
			s.Budget.Retrieve--
			s.Loops.Retrieve++
			s.Refined = refined
			return s, nil
		}
	}
	if s.Retrieval == RetrievalPoor && strength < p.opts.AbstainBelow && ev.Top < p.opts.OnePassage {
		s.Retrieval = RetrievalEmpty
		s.Measured += fmt.Sprintf(", under %.2f after refinement and no passage holds %.0f%% of the question", p.opts.AbstainBelow, 100*p.opts.OnePassage)
	}
	switch {
	case s.Retrieval == RetrievalEmpty && s.Budget.Retrieve == 0 && s.Loops.Retrieve > 0:
		s.Stop = "retrieve budget spent"
		s.note("evaluate: retrieve budget spent after %d refinements: nothing relevant found", s.Loops.Retrieve)
	case s.Budget.Retrieve == 0 && s.Loops.Retrieve > 0:
		s.Stop = "retrieve budget spent"
		s.note("evaluate: retrieve budget spent after %d refinements: answering from the best hits found", s.Loops.Retrieve)
	}
	return s, nil
}

// keep drops hits scoring below a share of the top score, then adds back
// the first hits that contain query terms the kept ones miss (the second
// passage of a two-hop question), up to MaxKept.
func (p *pipeline) keep(hits []graphrag.Hit, mode graphrag.SearchMode, terms []term) []graphrag.Hit {
	if len(hits) == 0 {
		return nil
	}
	ratio := p.opts.KeepRatio
	if mode == graphrag.ModeHybrid {
		ratio = p.opts.KeepRatioFused
	}
	top := hits[0].Score
	var kept []graphrag.Hit
	covered := make(map[string]bool)
	cover := func(h graphrag.Hit) int {
		stems := stemSet(h.Source.Title + " " + h.Chunk.Text)
		n := 0
		for _, t := range terms {
			if stems[t.Stem] && !covered[t.Stem] {
				covered[t.Stem] = true
				n++
			}
		}
		return n
	}
	var rest []graphrag.Hit
	for i, h := range hits {
		if len(kept) < p.opts.MaxKept && (i == 0 || top <= 0 || h.Score >= ratio*top) {
			kept = append(kept, h)
			cover(h)
			continue
		}
		rest = append(rest, h)
	}
	for _, h := range rest[:min(len(rest), evidenceHits)] {
		if len(kept) >= p.opts.MaxKept {
			break
		}
		if cover(h) > 0 {
			kept = append(kept, h)
		}
	}
	return kept
}

// facts takes the best sentence of each kept hit as its fact.
func facts(kept []graphrag.Hit, terms []term) []graphrag.Fact {
	var out []graphrag.Fact
	for i, h := range kept {
		best, bestScore := "", -1.0
		for _, sent := range splitSentences(h.Chunk.Text) {
			if sc := overlapScore(sent, terms); sc > bestScore {
				best, bestScore = sent, sc
			}
		}
		if best != "" {
			out = append(out, graphrag.Fact{Text: best, Hit: i})
		}
	}
	return out
}

func overlapScore(text string, terms []term) float64 {
	stems := stemSet(text)
	var s float64
	for _, t := range terms {
		if stems[t.Stem] {
			s += t.Weight
		}
	}
	return s
}

// refine returns a refined query: the Rewriter's, or the query expanded with
// terms from the best hits (pseudo-relevance feedback).
func (p *pipeline) refine(ctx context.Context, s *State, terms []term) string {
	if p.deps.Rewriter != nil && !s.modelDown {
		q, err := p.deps.Rewriter.Rewrite(ctx, s.question(), s.Hits)
		if err == nil && strings.TrimSpace(q) != "" {
			return strings.TrimSpace(q)
		}
		if err == nil {
			err = fmt.Errorf("empty rewrite")
		}
		s.modelFailed(ctx, err, "evaluate: rewriter failed, refined the query from the best hits: %v", err)
	}
	// Each further pass widens the expansion, so it searches differently.
	exp := expansionTerms(s.Hits[:min(len(s.Hits), 3)], terms, p.opts.ExpansionTerms*(1+s.Loops.Retrieve))
	if len(exp) == 0 {
		return ""
	}
	return s.question() + " " + strings.Join(exp, " ")
}

// expansionTerms picks words that recur across the best hits and are not in
// the query: names and rare words first.
func expansionTerms(hits []graphrag.Hit, query []term, n int) []string {
	inQuery := make(map[string]bool)
	for _, t := range query {
		inQuery[t.Stem] = true
	}
	type cand struct {
		word  string
		score float64
		first int
	}
	byStem := map[string]*cand{}
	order := 0
	for rank, h := range hits {
		seen := map[string]bool{}
		for _, t := range contentTerms(h.Source.Title + ". " + h.Chunk.Text) {
			if inQuery[t.Stem] || seen[t.Stem] || t.isNumber() {
				continue
			}
			seen[t.Stem] = true
			c := byStem[t.Stem]
			if c == nil {
				c = &cand{word: t.Word, first: order}
				order++
				byStem[t.Stem] = c
			}
			c.score += t.Weight / float64(rank+1)
		}
	}
	var cands []*cand
	for _, c := range byStem {
		cands = append(cands, c)
	}
	slices.SortFunc(cands, func(a, b *cand) int {
		switch {
		case a.score > b.score:
			return -1
		case a.score < b.score:
			return 1
		}
		return a.first - b.first
	})
	var out []string
	for _, c := range cands[:min(n, len(cands))] {
		out = append(out, c.word)
	}
	return out
}

// evidenceHits is how many of the first hits evaluate measures evidence on.
const evidenceHits = 5

// fuseRRF merges two ranked lists by reciprocal rank fusion (k = 60),
// keeping the first list's order on ties, and returns the first k hits.
// Scores become the fused sums.
func fuseRRF(a, b []graphrag.Hit, k int) []graphrag.Hit {
	type entry struct {
		hit   graphrag.Hit
		score float64
		order int
	}
	byID := map[string]*entry{}
	var all []*entry
	for _, list := range [][]graphrag.Hit{a, b} {
		for rank, h := range list {
			e := byID[h.Chunk.ID]
			if e == nil {
				e = &entry{hit: h, order: len(all)}
				byID[h.Chunk.ID] = e
				all = append(all, e)
			}
			e.score += 1 / float64(60+rank+1)
		}
	}
	slices.SortStableFunc(all, func(x, y *entry) int {
		switch {
		case x.score > y.score:
			return -1
		case x.score < y.score:
			return 1
		}
		return x.order - y.order
	})
	out := make([]graphrag.Hit, 0, min(k, len(all)))
	for _, e := range all[:min(k, len(all))] {
		h := e.hit
		h.Score = e.score
		out = append(out, h)
	}
	return out
}

// namesInHitDocuments returns, for each of the missing exact names, a
// passage of a document among the hits that holds it; nil when one of
// them is held by no such passage, or is no name: a version or a number
// ("1.28" elsewhere in Go's release notes is another release), or a term
// that is not the question's exact name (a system it limits its answer
// to, a name paired with its version: see matchConstraints), which must
// be held by the passage that answers. A failed search returns nil.
func (p *pipeline) namesInHitDocuments(ctx context.Context, s *State, missing []string) []graphrag.Hit {
	if p.deps.Searcher == nil {
		return nil
	}
	names := constrainingTerms(s.question())
	if slices.ContainsFunc(missing, func(t string) bool {
		return !slices.Contains(names, t) || versionPattern.MatchString(t) || !strings.ContainsFunc(t, unicode.IsLetter)
	}) {
		return nil
	}
	docs := map[string]bool{}
	var ids []string
	for _, h := range s.Hits {
		if !docs[h.Chunk.DocID] {
			docs[h.Chunk.DocID] = true
			ids = append(ids, h.Chunk.DocID)
		}
	}
	var out []graphrag.Hit
	for _, t := range missing {
		res, err := p.deps.Searcher.Search(ctx, graphrag.Query{Text: t, Mode: graphrag.ModeKeyword, K: 2 * passingMentions, Filters: graphrag.Filters{DocIDs: ids}})
		if err != nil {
			s.note("evaluate: could not look for %q in the documents found: %v", t, err)
			return nil
		}
		i := slices.IndexFunc(res.Hits, func(h graphrag.Hit) bool { return docs[h.Chunk.DocID] && newHaystack(h).holds(t) })
		if i < 0 {
			return nil
		}
		out = append(out, res.Hits[i])
	}
	return out
}

// withAskedLines is the kept hits and, when the question asks for a kind
// of answer a line of code holds (an error's text: askKind.codeLine), the
// best passage of the kept source files that holds a line of that kind and
// is not kept: a function is cut into passages, and the error the
// question describes may be in another of them than the one that matched
// best (the "spool already held" at the end of a long zorp.Open). kinds
// are the question's (askedKinds).
func (p *pipeline) withAskedLines(ctx context.Context, s *State, kinds []askKind) []graphrag.Hit {
	i := slices.IndexFunc(kinds, func(k askKind) bool { return k.codeLine })
	if i < 0 {
		return s.Kept
	}
	kind := kinds[i]
	return p.withKeptDocumentHit(ctx, s, isCodeHit, func(h graphrag.Hit) bool { return kind.has.MatchString(h.Chunk.Text) }, "the asked lines")
}

// withAskedKind is the kept hits and, when the question asks for a kind of
// answer (askedKinds) that no kept passage holds, the best passage of the
// kept documents that holds it: "whose say-so does retiring a zorp take"
// over a manual page whose example matched best, and whose description
// says who must own what. Of the kinds an answer must state
// (answerMustState), only a default is looked for, in a sentence that
// names what the question asks the default of (statesDefaultOf): "If no
// spool mode is given, frob uses LAZY" for "which spool mode does frob
// take if I name none", not the default of another option on the page.
// kinds are the question's (askedKinds).
func (p *pipeline) withAskedKind(ctx context.Context, s *State, kinds []askKind) []graphrag.Hit {
	i := slices.IndexFunc(kinds, func(k askKind) bool {
		return !k.codeLine && (!answerMustState[k.name] || k.name == "default") && !slices.ContainsFunc(s.Kept, func(h graphrag.Hit) bool { return k.in(h.Chunk.Text) })
	})
	if i < 0 {
		return s.Kept
	}
	kind := kinds[i]
	holds := func(h graphrag.Hit) bool { return kind.in(h.Chunk.Text) }
	if kind.name == "default" {
		terms := contentTerms(s.question())
		holds = func(h graphrag.Hit) bool { return statesDefaultOf(kind, h.Chunk.Text, terms) }
	}
	all := func(graphrag.Hit) bool { return true }
	return p.withKeptDocumentHit(ctx, s, all, holds, "the asked kind of answer")
}

// minDefaultTerms is how many of the question's words (not everyday
// ones) a sentence that states a default must hold to state the one
// asked about: "spool" and "mode" of "If no spool mode is given"; one
// word, the program's name, is shared by the defaults of all its options.
const minDefaultTerms = 2

// statesDefaultOf reports whether a sentence of text states a default
// (kind is the default askKind) and holds minDefaultTerms of the
// question's terms.
func statesDefaultOf(kind askKind, text string, terms []term) bool {
	for _, sent := range splitSentences(text) {
		if !kind.in(sent) {
			continue
		}
		stems, n := stemSet(sent), 0
		for _, t := range terms {
			if t.specific() && stems[t.Stem] {
				n++
			}
		}
		if n >= minDefaultTerms {
			return true
		}
	}
	return false
}

// withKeptDocumentHit is the kept hits and one passage more: of the
// passages a keyword search for the question finds within the kept
// documents that docs admits, the best ranked that is not kept and that
// holds admits. The pipeline must have a Searcher. A failed search keeps
// the hits as they are, and a note says what was looked for.
func (p *pipeline) withKeptDocumentHit(ctx context.Context, s *State, docs, holds func(graphrag.Hit) bool, what string) []graphrag.Hit {
	kept := map[string]bool{}
	var ids []string
	for _, h := range s.Kept {
		kept[h.Chunk.ID] = true
		if docs(h) && !slices.Contains(ids, h.Chunk.DocID) {
			ids = append(ids, h.Chunk.DocID)
		}
	}
	if len(ids) == 0 {
		return s.Kept
	}
	res, err := p.deps.Searcher.Search(ctx, graphrag.Query{Text: s.question(), Mode: graphrag.ModeKeyword, K: 2 * passingMentions, Filters: graphrag.Filters{DocIDs: ids}})
	if err != nil {
		s.note("evaluate: could not look for %s in the files found: %v", what, err)
		return s.Kept
	}
	for _, h := range res.Hits {
		if !kept[h.Chunk.ID] && slices.Contains(ids, h.Chunk.DocID) && holds(h) {
			return append(slices.Clip(s.Kept), h)
		}
	}
	return s.Kept
}

// answerMustState are the kinds of answer an answer must state, or
// graphrag abstains (answersAsked): that no kept passage states one says
// the files may not answer, and a passage of the kept pages that states
// one of another thing is not looked for (a default is, where it names
// what is asked: see withAskedKind).
var answerMustState = toSet(`version default limit person`)
