package nodes

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/graphrag/graphrag"
)

// route is the "route" node: it plans how to answer the query.
func (p *pipeline) route(ctx context.Context, s State) (State, error) {
	if !s.started {
		s.started = true
		if s.Budget == (Budget{}) {
			s.Budget = p.opts.Budget
		}
	}
	if s.Refined != "" {
		// Back from a corrective loop: keep searching locally with the
		// refined query, alone: the planner's other wordings
		// (Plan.Queries) were of the question it saw, and searching them
		// again would bring back the hits the refinement moves away from.
		prev := s.Plan
		plan := basePlan(s.Refined)
		plan.Route = prev.Route
		if plan.Route != graphrag.RouteVector && plan.Route != graphrag.RouteHybrid && plan.Route != graphrag.RouteWeb {
			plan.Route = graphrag.RouteVector
		}
		plan.FileTypes, plan.SourceHint, plan.Time = prev.FileTypes, prev.SourceHint, prev.Time
		plan.Confidence = prev.Confidence
		plan.By = "refine"
		plan.Reason = fmt.Sprintf("search again with the refined query %q", s.Refined)
		s.Plan = plan
		s.Refined = ""
		return s, nil
	}
	query := s.Query
	if prev, ok := followUp(s.Query, s.History); ok {
		query = prev + " " + s.Query
		s.Resolved = query
		s.note("route: %q reads as a follow-up: searching with the previous question too", s.Query)
	}
	plan, probe, notes, err := p.plan(ctx, query, s.History, s.modelDown)
	s.Plan, s.Probe = plan, probe
	if strings.Contains(plan.Reason, reasonLittleLocal) {
		s.note("route: %s", reasonLittleLocal)
	}
	if strings.Contains(plan.Reason, reasonWebOff) {
		s.note("route: %q needs fresh information but web search is off (enable it with --web searxng=URL): searched your files, the answer may be out of date", s.Query)
	}
	for _, n := range notes {
		s.fallback(ctx, "%s", n)
	}
	if err != nil {
		s.modelFailed(ctx, err, "route: planner failed, kept the %s decision: %v", plan.By, err)
	}
	s.addUsage("route", plan.Usage)
	return s, ctx.Err()
}

// basePlan extracts keywords and filters from the query.
func basePlan(query string) graphrag.Plan {
	return graphrag.Plan{
		Query:      query,
		Keywords:   extractKeywords(query),
		FileTypes:  extractFileTypes(query),
		SourceHint: extractSourceHint(query),
		Time:       extractTime(query),
	}
}

// plan decides the route: the guarantees (rules.go) first, then the
// learned router (routerdata/policy.json) refined by the query's cues and
// joined by the corpus probe, then the Planner when the calibrated
// confidence is low.
//
// It returns fallback notes, and the Planner's error, if it failed; with
// modelDown the Planner is not asked.
func (p *pipeline) plan(ctx context.Context, query string, history []graphrag.Turn, modelDown bool) (graphrag.Plan, Evidence, []string, error) {
	var notes []string
	plan := basePlan(query)
	if strings.TrimSpace(query) == "" {
		plan.Route, plan.By, plan.Reason, plan.Confidence, plan.Kind = graphrag.RouteDirect, "rules", "empty query", 1, classDirect
		return plan, Evidence{}, nil, nil
	}
	if sq, ok := p.deps.Tools.(StoreQuestions); ok && sq.AboutStore(query) {
		plan.Route, plan.By, plan.Confidence, plan.Reason, plan.Kind = graphrag.RouteFilesystem, "rules", ruleConfidence, reasonAboutStore, classFilesystem
		return plan, Evidence{}, nil, nil
	}
	r, ruled := matchRule(query)
	if ruled && r.Route == graphrag.RouteDirect && p.opts.Router != RouterLearned {
		plan.Route, plan.By, plan.Confidence, plan.Reason, plan.Kind = r.Route, "rules", ruleConfidence, r.Reason, classDirect
		return plan, Evidence{}, nil, nil
	}
	if _, ok := convertUnits(query); ok && p.opts.Router != RouterLearned {
		plan.Route, plan.By, plan.Confidence, plan.Reason, plan.Kind = graphrag.RouteDirect, "rules", ruleConfidence, "unit conversion: computed directly", classDirect
		return plan, Evidence{}, nil, nil
	}
	identifier := ruled && r.Route == graphrag.RouteHybrid || hasCodeToken(query) || anyMatch(referenceCues, query)
	if identifier && !(ruled && r.Route == graphrag.RouteHybrid) {
		r = rule{Route: graphrag.RouteHybrid, Reason: "an exact reference: keyword and vector search together"}
	}
	if !identifier && p.namesStorePath(ctx, query) {
		identifier = true
		r = rule{Route: graphrag.RouteHybrid, Reason: "names a path in your files: keyword and vector search together"}
	}
	pred := p.clf.predict(query)
	if p.opts.Router == RouterRules {
		// No classifier: an even prediction between local and direct, so
		// the probe decides.
		pred = prediction{Probs: map[graphrag.Route]float64{graphrag.RouteVector: 0.5, graphrag.RouteDirect: 0.5}, Class: classLocal, ClassProb: 0.5}.ranked()
	}
	var why []string
	if pred.Best == graphrag.RouteFilesystem && !mentionsFiles(query) {
		// The file tools only answer questions about files; without a word
		// for files, folders or saving, the classifier's next pick stands.
		pred = pred.without(graphrag.RouteFilesystem)
		why = append(why, "no word for files: not a filesystem question")
	}
	if pred.Best == graphrag.RouteFilesystem && programsFiles(query) {
		// "what files does the installer write" asks what a program does:
		// its code or manual say, the file tools cannot.
		pred = pred.without(graphrag.RouteFilesystem)
		why = append(why, "asks which files a program uses, not about the files")
	}
	// weakFiles: the classifier says filesystem, but the query has no cue
	// about files as objects (a count, a listing, a size, a date, a folder,
	// a name): strong local evidence may overrule it, and a procedural
	// "how do I ..." question is about content, not files.
	// Only the sentences that ask count: "I edited the alias file. How do
	// I get the filter to pick it up?" tells what the asker did to a file,
	// and asks how to do something (see askingPart).
	asking := askingPart(query)
	weakFiles := pred.Best == graphrag.RouteFilesystem && !fileObjectCue(askersFileWords(asking))
	if weakFiles && procedural.MatchString(asking) {
		pred = pred.without(graphrag.RouteFilesystem)
		weakFiles = false
		why = append(why, "a how-to question is about content")
	}
	// actNow: the classifier's likeliest class is a request to act and the
	// query does not ask anything ("archive the logs folder", "change
	// permissions of all files under src"); request: and the classifier is
	// not unsure of it.
	// Naming files, a document or an identifier does not make a request a
	// question about them.
	actNow := pred.Class == classAction && !asksSomething(query) && opensLikeRequest(query)
	request := actNow && pred.ClassProb >= classifierUnsure
	filesAsObjects := filesAsObjects(asking)
	if pred.Best != graphrag.RouteFilesystem && pred.Probs[graphrag.RouteFilesystem] >= filesNudge && filesAsObjects && !(actNow && anyMatch(changeCues, query)) {
		pred = pred.toward(graphrag.RouteFilesystem, classFilesystem)
		why = append(why, "names files and asks about them as objects")
	}
	personal := anyMatch(personalCues, query)
	owned := personal || anyMatch(ownerCues, query)
	switch {
	case personal && !request && (pred.Best == graphrag.RouteWeb || pred.Best == graphrag.RouteDirect):
		// A user's contract or invoice is in their files, never on the web.
		pred = pred.toward(graphrag.RouteVector, classLocal)
		why = append(why, "names one of your documents: searched locally")
	case owned && (pred.Class == classGeneral || pred.Class == classAction) && asksSomething(query):
		// "how do I restore our backup": a question about the user's own
		// things, not a request to act.
		pred = pred.toward(graphrag.RouteVector, classLocal)
		why = append(why, "a question about your own things: searched locally")
	case pred.Class == classAction && procedural.MatchString(query):
		// "how do I restore a file from the backup": how to do something is
		// asked of the files, it asks nothing to be done.
		pred = pred.toward(graphrag.RouteVector, classLocal)
		why = append(why, "asks how to do it, not to do it: searched locally")
	case !owned && (pred.Class == classLocal || pred.Class == classGeneral) && anyMatch(freshCues, query):
		pred = pred.toward(graphrag.RouteWeb, classWeb)
		why = append(why, "time-sensitive: needs fresh information")
	}
	if pred.Class == classAction && !asksSomething(query) && !actNow {
		// "gzip writer", "http server shutdown": search words, not a
		// request; no request to act opens with "http".
		why = append(why, "opens with no verb of a request: search words")
	}
	if pred.Class == classAction && !actNow {
		// Asked as a question ("can the importer skip blank rows?",
		// "besides the owner, who may rename it"), a request to act is a question
		// about doing it: general knowledge, which a model answers and the
		// files may hold; "graphrag only reads" would answer nothing.
		pred.Class = classGeneral
		why = append(why, "asks about doing it, not to do it")
	}
	// A request to act on a named thing ("delete server.log") is still a
	// request: graphrag cannot act, and a keyword search would not say so.
	if identifier && !(pred.Best == graphrag.RouteFilesystem && filesAsObjects) && !request &&
		(pred.Best != graphrag.RouteWeb && pred.Best != graphrag.RouteFilesystem || pred.Probs[pred.Best] < identifierYield || bareQuery(query)) {
		pred = pred.toward(graphrag.RouteHybrid, classLocal)
		why = append(why, r.Reason)
	}

	if plan.SourceHint != "" && !p.namesSource(ctx, query, plan.SourceHint) {
		plan.SourceHint = ""
		why = append(why, "a dotted name is a search term, not a file filter")
	}
	var ev Evidence
	var probeHits []graphrag.Hit
	probed := false
	if p.deps.Searcher != nil && p.opts.ProbeK > 0 && !p.probeCannotChange(query, pred, owned || identifier, filesAsObjects) {
		res, err := p.probe(ctx, query, plan)
		if err != nil {
			if ctx.Err() != nil {
				return plan, ev, notes, nil
			}
			notes = append(notes, fmt.Sprintf("route: probe search failed, routing without corpus evidence: %v", err))
		} else {
			ev, probeHits, probed = measureEvidence(probeTerms(query), res.Hits, p.opts.ProbeK), res.Hits, true
		}
	}
	plan.Route, plan.Confidence, plan.By, plan.Reason = p.combine(query, pred, ev, probed, weakFiles && !filesAsObjects, owned || identifier, filesAsObjects)
	if plan.Route == graphrag.RouteFilesystem && !asksForFiles(query) && (!fileMetadataPattern.MatchString(query) || p.deps.Tools == nil) && p.deps.Searcher != nil && p.opts.ProbeK > 0 {
		if !probed {
			if res, err := p.probe(ctx, query, plan); err == nil {
				probeHits = res.Hits
			}
		}
		if content := p.contentEvidence(query, probeHits); p.opts.strongEvidence(content) {
			// "the output file go tool link writes", "where is git-daemon's
			// base directory configured": the words beside those for files
			// are what one passage says, names and rare words included. The
			// file tools would list files; the passage answers. Not when it
			// asks for files (asksForFiles) or, when there are file tools,
			// for what only they know (a count, a size, a date:
			// fileMetadataPattern); without them nothing else would answer.
			plan.Route, plan.Confidence, plan.By = graphrag.RouteVector, content.Strength(), "probe"
			plan.Reason = fmt.Sprintf("asks what your files say of it: its words besides those for files are in them: evidence %.2f (specific %.1f); %s", content.Strength(), content.Specific, plan.Reason)
			pred = pred.toward(graphrag.RouteVector, classLocal)
		}
	}
	plan.Kind = requestKind(plan.Route, pred)
	if plan.Route == graphrag.RouteWeb && p.deps.Web == nil {
		// Never route to a disabled web search: the files are searched,
		// and the answer may be out of date.
		plan.Route = graphrag.RouteVector
		why = append(why, reasonWebOff)
	}
	if plan.Route == graphrag.RouteFilesystem && p.deps.Tools == nil && !fileMetadataPattern.MatchString(query) {
		// No file tools to list the files: a question that asks no
		// count, size or date of them ("which directory does zorpd read
		// its profiles from") is searched for in what they say.
		plan.Route = graphrag.RouteVector
		why = append(why, reasonFilesOff)
	}
	if len(why) > 0 {
		plan.Reason += "; " + strings.Join(why, "; ")
	}
	if p.opts.Router == RouterRules && plan.By == "learned" {
		plan.By = "rules"
	}
	if plan.Route == graphrag.RouteVector && (identifier || dottedNamePattern.MatchString(query)) {
		plan.Route = graphrag.RouteHybrid
	}
	if isLocal(plan.Route) && ev.Strength() < p.opts.WeakEvidence && probed && p.deps.Writer == nil && p.deps.Web == nil {
		plan.Reason += "; " + reasonLittleLocal
	}

	var perr error
	if p.deps.Planner != nil && !modelDown && plan.Confidence < p.opts.PlannerBelow {
		llm, err := p.deps.Planner.Plan(ctx, query, history)
		switch {
		case err != nil:
			perr = err
		case !llm.Route.Valid():
			notes = append(notes, fmt.Sprintf("route: planner returned unknown route %q, kept the %s decision", llm.Route, plan.By))
			plan.Usage = llm.Usage
		case llm.Route == graphrag.RouteWeb && p.deps.Web == nil:
			notes = append(notes, fmt.Sprintf("route: planner chose web search, which is off: kept the %s decision", plan.By))
			plan.Usage = llm.Usage
		case llm.Route == graphrag.RouteFilesystem && p.deps.Tools == nil && plan.Route != graphrag.RouteFilesystem:
			notes = append(notes, fmt.Sprintf("route: planner chose the filesystem tools, which are off: kept the %s decision", plan.By))
			plan.Usage = llm.Usage
		default:
			plan = mergePlan(plan, llm)
		}
	}
	return plan, ev, notes, perr
}

// reasonLittleLocal is in a plan's reason when a question stays local with
// little local evidence and nothing else to ask.
const reasonLittleLocal = "your files hold little about this; a language model (see graphrag run --help) or web search (--web searxng=URL) would help"

// reasonWebOff is in a plan's reason when the router wanted the web but web
// search is off.
const reasonWebOff = "web search is off: searched your files instead, the answer may be out of date"

// reasonFilesOff is in a plan's reason when the router wanted the
// filesystem tools, which are off, for a question their contents may
// answer.
const reasonFilesOff = "the filesystem tools are off: searched what your files say"

const (
	// ruleConfidence is a guarantee's confidence: it is not learned, so not
	// calibrated, but the planner must not second-guess arithmetic.
	ruleConfidence = 0.95
	// webSure: a web prediction at least this confident is not overruled
	// by local evidence ("the weather in Bergen" over notes about Bergen);
	// below it, strong evidence in the files wins unless the question is
	// time-sensitive.
	webSure = 0.9
	// directSure: a direct prediction this confident has a margin of at
	// least 0.5, the most the probe overrules without other cause.
	directSure = 0.75
	// filesNudge: a question that names files and treats them as objects
	// (a count, a listing, a size, a date) goes to the file tools when the
	// classifier gives them at least this probability.
	filesNudge = 0.15
	// classifierUnsure: below this confidence a direct, web or filesystem
	// prediction yields to fair local evidence.
	classifierUnsure = 0.5
	// identifierYield: a query with an exact identifier gets a keyword
	// search unless the classifier is at least this sure it is about the web
	// or the files as objects ("is flight UA90 on time").
	identifierYield = 0.8
)

// answersDirectly reports whether the direct route answers the query
// without a model: arithmetic, conversions, the clock, small talk.
func (p *pipeline) answersDirectly(query string) bool {
	_, ok := directAnswer(query, p.now)
	return ok
}

// isLocal reports whether a route searches the user's files.
func isLocal(r graphrag.Route) bool { return r == graphrag.RouteVector || r == graphrag.RouteHybrid }

// bareQuery reports whether a query is little more than its identifier:
// "os.ErrNotExist", "what is E4012".
func bareQuery(q string) bool { return len(contentTerms(q)) <= 2 }

// namesSource reports whether the source hint the wording suggests is a
// file or folder the user named: a folder word ("in my notes folder"), a
// path with a slash, a document-like file name ("backup.md"), or a name
// that occurs in the path of an ingested file. A dotted name such as
// "Node.js" is otherwise a search term.
func (p *pipeline) namesSource(ctx context.Context, query, hint string) bool {
	if !dottedNamePattern.MatchString(hint) && !strings.EqualFold(hint, dottedNamePattern.FindString(query)) {
		return true
	}
	if p.deps.Searcher == nil {
		return false
	}
	res, err := p.probe(ctx, hint, graphrag.Plan{SourceHint: hint})
	return err == nil && len(res.Hits) > 0
}

// localEvidence runs the probe for query with plan's filters and measures
// how much of the query the files hold.
func (p *pipeline) localEvidence(ctx context.Context, query string, plan graphrag.Plan) (Evidence, error) {
	res, err := p.probe(ctx, query, plan)
	if err != nil {
		return Evidence{}, err
	}
	return measureEvidence(probeTerms(query), res.Hits, p.opts.ProbeK), nil
}

// fileAskers are the words that, right before a noun for files (with
// "my", "the", "of" or "all" between), make files what a question asks
// for: "which files talk about X", "any PDFs from May", "list all my notes".
var fileAskers = toSet(`which what any all list show find count many every`)

// fileAskerGlue are the words that may stand between a fileAsker and its
// noun for files.
var fileAskerGlue = toSet(`my our your the of all`)

// asksForFiles reports whether files or folders are the answer a query
// asks for (fileAskers before one of fileNouns), not what it asks about:
// "which files mention Kubernetes" against "what's the name of the output
// file the linker writes". Not files denied ("without reading any files")
// nor a folder a named document lays out (inDocument).
func asksForFiles(query string) bool {
	toks := tokenize(query)
	for i, t := range toks {
		if !fileNouns[t.Lower] && !fileNouns[t.Stem] {
			continue
		}
		if inDocument(toks, i) {
			continue
		}
		for j := i - 1; j >= 0 && j >= i-3; j-- {
			w := toks[j].Lower
			if fileAskers[w] {
				if w == "any" && j > 0 && negated(toks, j) {
					// "without reading any files": files it does not ask for.
					break
				}
				return true
			}
			if !fileAskerGlue[w] {
				break
			}
		}
	}
	return false
}

// contentEvidence measures the probe's hits for the question's words that
// are not words for files and folders (fileWords): how well one passage
// holds what a question the classifier takes for one about files asks
// besides files. A question about files as objects ("the largest PDFs in
// Downloads") has few such words, and passages hold them only in passing.
func (p *pipeline) contentEvidence(query string, hits []graphrag.Hit) Evidence {
	var terms []term
	for _, t := range probeTerms(query) {
		if !fileWords[t.Word] && !fileWords[t.Stem] {
			terms = append(terms, t)
		}
	}
	if len(terms) == 0 {
		return Evidence{}
	}
	return measureEvidence(terms, hits, p.opts.ProbeK)
}

// strongEvidence: the files hold the question's terms, names and rare
// words included, well enough to keep it local against the classifier.
func (o Options) strongEvidence(ev Evidence) bool {
	return ev.Strength() >= o.StrongEvidence && ev.Specific >= o.MinSpecific
}

// fairEvidence: halfway between weak and strong, with as many specific
// terms as strong evidence: enough to keep a general-knowledge question
// local when no language model can answer it (routerdata/policy.json).
func (o Options) fairEvidence(ev Evidence) bool {
	return ev.Strength() >= (o.WeakEvidence+o.StrongEvidence)/2 && ev.Specific >= o.MinSpecific
}

// weakEvidence: the files hold little of the question, or only its
// everyday words.
func (o Options) weakEvidence(ev Evidence) bool {
	s := ev.Strength()
	return s < o.WeakEvidence || (ev.Specific < o.MinSpecific/2 && s < o.StrongEvidence)
}

// combine joins the classifier's prediction with the probe's evidence.
// weakFiles says a filesystem prediction has no cue about files as objects:
// then fair local evidence is enough to overrule it. stay says the query is
// about the user's own things or names an identifier: a weak probe does not
// send it away from the files.
func (p *pipeline) combine(query string, pred prediction, ev Evidence, probed, weakFiles, stay, filesAsObjects bool) (graphrag.Route, float64, string, string) {
	best, conf := pred.Best, pred.Probs[pred.Best]
	why := fmt.Sprintf("classifier: %s %.2f, %s (next %s, margin %.2f)", best, conf, pred.Class, pred.Second, pred.Margin)
	if !probed {
		return best, conf, "learned", why
	}
	strength := ev.Strength()
	strong := p.opts.strongEvidence(ev)
	fairEv := p.opts.fairEvidence(ev)
	weak := p.opts.weakEvidence(ev)
	evid := fmt.Sprintf("probe: evidence %.2f (top %.2f, union %.2f, specific %.1f, title %v)", strength, ev.Top, ev.Union, ev.Specific, ev.Title)
	switch best {
	case graphrag.RouteVector, graphrag.RouteHybrid:
		// Local first when there is no one else to ask: a weak probe sends
		// a question to the web or to a model only when one is configured.
		if weak && !stay {
			to := graphrag.RouteDirect
			if pred.Probs[graphrag.RouteWeb] > pred.Probs[graphrag.RouteDirect] && p.deps.Web != nil {
				to = graphrag.RouteWeb
			}
			if to == graphrag.RouteWeb || p.deps.Writer != nil || p.deps.Planner != nil {
				return to, 1 - strength, "probe", fmt.Sprintf("no local evidence: %s; %s", evid, why)
			}
		}
		return best, max(conf, strength), "learned", why + "; " + evid
	case graphrag.RouteDirect, graphrag.RouteWeb, graphrag.RouteFilesystem:
		// An unsure classifier needs less evidence to be overruled, and so
		// does a general-knowledge question when no model can answer it.
		unsure := conf < classifierUnsure || weakFiles && best == graphrag.RouteFilesystem && conf < 0.9
		// Without a language model nothing but the files can answer general
		// knowledge (the direct route could only say a model is needed):
		// local first, unless the files hold little about it.
		generalNoModel := best == graphrag.RouteDirect && pred.Class == classGeneral && p.deps.Writer == nil
		// A definition ("what is X", "what does X stand for") is language
		// the direct route can answer only through a model; without one it
		// would say a model is needed. When the files clearly hold the
		// subject, they answer it instead: fair evidence, and a file or
		// its folder is named after one of the question's names or rare
		// words (Evidence.Named). A common word that the files merely
		// mention ("how do you spell ...") stays language.
		definitionNoModel := best == graphrag.RouteDirect && pred.Class == classDirect && p.deps.Writer == nil &&
			fairEv && ev.Named && !p.answersDirectly(query)
		override := strong && pred.Margin < 0.5 || unsure && fairEv || generalNoModel && !weak || definitionNoModel ||
			strong && best == graphrag.RouteWeb && conf < webSure && !anyMatch(freshCues, query)
		if best == graphrag.RouteDirect && strong {
			switch pred.Class {
			case classGeneral:
				override = true
			case classAction:
				// graphrag only reads: a request to act is answered so,
				// whatever the files hold; asked as a question ("who
				// directed ...?"), it was no request.
				override = asksSomething(query)
			case classDirect:
				// Small talk, arithmetic and definitions stay direct, unless
				// the answer would be "needs general knowledge" although the
				// files hold strong evidence.
				override = p.deps.Writer == nil && !p.answersDirectly(query)
			}
		}
		if override && !(best == graphrag.RouteFilesystem && filesAsObjects) {
			if generalNoModel {
				// The route is right when the question is general knowledge
				// or about the user's documents: the classifier's
				// probability of either.
				return graphrag.RouteVector, min(1, pred.Probs[graphrag.RouteVector]+pred.Probs[graphrag.RouteHybrid]+pred.ClassProb), "probe",
					fmt.Sprintf("general knowledge and no language model: your files hold some of it: %s; %s", evid, why)
			}
			if definitionNoModel && !strong {
				return graphrag.RouteVector, strength, "probe", fmt.Sprintf("no language model to define it, and your files are named after its subject: %s; %s", evid, why)
			}
			return graphrag.RouteVector, strength, "probe", fmt.Sprintf("strong local evidence overrides %s: %s; %s", best, evid, why)
		}
	}
	return best, conf, "learned", why + "; " + evid
}

// requestKind is the kind of request (Plan.Kind) a route stands for: the
// classifier's class when the route is that class's, else the route's own.
func requestKind(r graphrag.Route, pred prediction) string {
	if classRoute(pred.Class) == r || isLocal(r) && pred.Class == classLocal {
		return pred.Class
	}
	switch r {
	case graphrag.RouteWeb:
		return classWeb
	case graphrag.RouteFilesystem:
		return classFilesystem
	case graphrag.RouteVector, graphrag.RouteHybrid:
		return classLocal
	}
	return ""
}

// mergePlan takes the planner's plan, filling what it left out from the
// deterministic one.
func mergePlan(det, llm graphrag.Plan) graphrag.Plan {
	if strings.TrimSpace(llm.Query) == "" {
		llm.Query = det.Query
	}
	if len(llm.Keywords) == 0 {
		llm.Keywords = det.Keywords
	}
	if len(llm.FileTypes) == 0 {
		llm.FileTypes = det.FileTypes
	}
	if llm.SourceHint == "" {
		llm.SourceHint = det.SourceHint
	}
	if llm.Time == graphrag.TimeAny {
		llm.Time = det.Time
	}
	if llm.By == "" {
		llm.By = "llm"
	}
	if llm.Kind == "" && llm.Route == det.Route {
		llm.Kind = det.Kind
	}
	if llm.Reason == "" {
		llm.Reason = fmt.Sprintf("planner chose %s (the classifier was unsure: %s)", llm.Route, det.Reason)
	}
	return llm
}

// filters turns a plan into store filters.
func (p *pipeline) filters(plan graphrag.Plan) graphrag.Filters {
	f := graphrag.Filters{Types: plan.FileTypes, Source: plan.SourceHint}
	if plan.Time != graphrag.TimeAny {
		f.Since, f.Until = plan.Time.Range(p.now())
	}
	return f
}

// referring are words that point back at an earlier turn.
var referring = toSet(`it its that this those these them they he she him her his there same above`)

// followUp reports whether query leans on the previous turn ("what about
// that invoice?", "and when was he born?") and returns the previous
// question to search with: a short query with a referring word or an
// opening "and"/"what about", when there is a history.
func followUp(query string, history []graphrag.Turn) (string, bool) {
	if len(history) == 0 {
		return "", false
	}
	prev := strings.TrimSpace(history[len(history)-1].Query)
	if prev == "" {
		return "", false
	}
	toks := tokenize(query)
	if len(toks) == 0 || len(contentTerms(query)) > 3 {
		return "", false
	}
	lead := strings.ToLower(strings.TrimSpace(query))
	if strings.HasPrefix(lead, "and ") || strings.HasPrefix(lead, "what about") || strings.HasPrefix(lead, "how about") {
		return prev, true
	}
	for _, t := range toks {
		if referring[t.Lower] {
			return prev, true
		}
	}
	return "", false
}

// fileWords are what a question about the files themselves mentions.
var fileWords = toSet(`file files filename folder folders directory directories dir pdf pdfs doc docs
document documents note notes spreadsheet spreadsheets image images photo photos picture pictures video
videos song songs music mp3 downloads download downloaded desktop disk drive storage space saved save
edited modified changed created added largest biggest smallest newest oldest recent recently size sizes
tree ls du find locate wc stat dir symlink symlinks link links extension extensions archive archives zip
backup backups log logs txt csv md markdown presentation presentations slides script scripts code source
empty hidden permissions owner owned bytes mb gb kb`)

// mentionsFiles reports whether a query talks about files, folders or
// saving things.
func mentionsFiles(query string) bool {
	for _, t := range tokenize(query) {
		if fileWords[t.Lower] || fileWords[t.Stem] {
			return true
		}
	}
	return fileNamePattern.MatchString(query)
}

// fileNouns name files and folders themselves (fileWords also holds words
// such as "largest" or "recent" that only lean towards files).
var fileNouns = toSet(`file files filename filenames folder folders directory directories pdf pdfs
note notes document documents doc docs spreadsheet spreadsheets image images photo photos picture pictures video
videos presentation presentations archive archives zip downloads desktop txt csv md markdown script scripts`)

// mentionsFileNoun reports whether a query names files or folders.
func mentionsFileNoun(query string) bool {
	for _, t := range tokenize(query) {
		if fileNouns[t.Lower] {
			return true
		}
	}
	return fileNamePattern.MatchString(query)
}

var (
	// A cue that a question is about files as objects comes in two kinds.
	// fileMetadataPattern asks what only the file tools know: a count, a
	// size, a date, the space taken, permissions. fileLocationPattern asks
	// where a file is or for a listing: folders, names, "where is", "show":
	// words a question about a program's files uses too ("where is the
	// daemon's base directory configured").
	fileMetadataPattern = regexp.MustCompile(`(?i)\b(how many|count|number of|sizes?|how (big|large)|large|larger|largest|big|bigger|biggest|small|smaller|smallest|newest|oldest|latest|recent|recently|modified|edited|changed|created|saved|added|downloaded|du|extensions?|bytes|[kmg]b|empty|hidden|permissions?|owner|owned|duplicates?|sorted|storage|space|room|eating|taking up|take up|since|this week|today|yesterday|last (week|month|year))\b`)
	fileLocationPattern = regexp.MustCompile(`(?i)\b(list|listing|show( me)?|display|folders?|director(y|ies)|named|called|tree|where is|where are|where did i|which files|what files|any files|ls|find|locate)\b`)
	// procedural is a how-to question: about what the files say.
	procedural = regexp.MustCompile(`(?i)^\s*(how (do|can|should|would|could|to) (i|we|you|one)\b|how to\b|what (are|is) the steps?\b|steps to\b)`)
)

// fileObjectCue reports whether a query treats files as objects rather
// than asking about their content.
func fileObjectCue(query string) bool {
	return fileMetadataPattern.MatchString(query) || fileLocationPattern.MatchString(query) || fileNamePattern.MatchString(query)
}

// quotedSpan is what the asker quotes: "…", “…”, `…` or `…'.
var quotedSpan = regexp.MustCompile("\"[^\"]*\"|“[^”]*”|`[^`']*[`']")

// askersFileWords is a query with what only mentions files left out: a
// quoted message of several words ("zorp: can't open `frob.conf' file"; a
// quoted name such as "notes.txt" stays) and a word for files that names
// a program ("the file command"; see namedKinds). What is left are the
// asker's own words about files.
func askersFileWords(query string) string {
	q := quotedSpan.ReplaceAllStringFunc(query, func(m string) string {
		if !strings.ContainsAny(strings.TrimSpace(m[1:len(m)-1]), " \t") {
			return m
		}
		return strings.Repeat(" ", len(m))
	})
	toks := tokenize(q)
	var b strings.Builder
	last := 0
	for i, t := range toks {
		if fileNouns[t.Lower] && i+1 < len(toks) && namedKinds[toks[i+1].Lower] {
			b.WriteString(q[last:t.Start])
			last = t.End
		}
	}
	b.WriteString(q[last:])
	return b.String()
}

// filesAsObjects reports whether a query asks about files as objects (the
// file tools' questions: a count, a size, a date, a listing) in the
// asker's own words (askersFileWords): one of its clauses names files or
// folders and holds a cue about them. Not so a how-to question, one about
// which files a program uses (programsFiles), nor one about named code
// that files are only what it handles ("does zorp.Walk stop at a folder
// it cannot read?"), unless files are what it asks for (asksForFiles).
func filesAsObjects(query string) bool {
	if procedural.MatchString(query) || programsFiles(query) {
		return false
	}
	own := askersFileWords(query)
	if len(qualifiedNames(own)) > 0 && !asksForFiles(own) {
		return false
	}
	for _, c := range clauses(own) {
		if mentionsFileNoun(c) && fileObjectCue(c) {
			return true
		}
	}
	return false
}

// clauses splits a query into its sentences and the clauses a semicolon
// or a dash joins: "gofrob skipped my script; so how many times will it
// retry?" asks its count of the second clause, not of the script.
func clauses(query string) []string {
	var out []string
	for _, s := range splitSentences(query) {
		out = append(out, clauseBreak.Split(s, -1)...)
	}
	return out
}

// clauseBreak joins two clauses of one sentence: a semicolon, or a dash
// with a space on both sides.
var clauseBreak = regexp.MustCompile(`;|\s[—–-]\s`)

// negationWords deny what follows them: "without reading any files".
var negationWords = toSet(`without no not never nor`)

// negated reports whether a negation word stands within two words before
// toks[j].
func negated(toks []token, j int) bool {
	for k := j - 1; k >= 0 && k >= j-2; k-- {
		if negationWords[toks[k].Lower] {
			return true
		}
	}
	return false
}

// inDocument reports whether the noun for files at toks[i] is placed in a
// named file or address ("which directory in index.theme", "which folder
// under example.org/releases"): what a document lays out, not the asker's
// folders.
func inDocument(toks []token, i int) bool {
	if i+2 >= len(toks) {
		return false
	}
	switch toks[i+1].Lower {
	case "in", "under", "inside", "of":
	default:
		return false
	}
	w := toks[i+2].Lower
	return strings.Contains(w, ".") && !strings.HasSuffix(w, ".")
}
