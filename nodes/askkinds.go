package nodes

import (
	"regexp"
	"slices"
	"strings"
)

// An askKind is a kind of answer a question part asks for: "when" wants a
// time, "where" a place, "how much" an amount. A multi-part question ("when
// does it run and where does it go?") asks for several.
type askKind struct {
	name string
	// ask finds the kind in a question; has in a sentence, once what
	// matches not (when set) is removed.
	ask, has, not *regexp.Regexp
	// prefer are words that mark the sentence that answers the kind best
	// ("total" for an amount).
	prefer map[string]bool
	// compound, when set, finds the compound nouns in which the kind's
	// word names something else: "which version control tools" asks for
	// tools, not a version. A question's compounds do not ask for the kind.
	compound *regexp.Regexp
	// search, when set, finds the kind in a query written as a search
	// rather than a question, with no "?" ("zorp.Open error when the
	// spool is locked").
	search *regexp.Regexp
	// codeLine is true for a kind that a line of code holds on its own
	// (an error's text): a long code block is quoted around that line.
	codeLine bool
}

var askKinds = []askKind{
	// "When" asks for a time where it opens the question or a clause of
	// it ("when does the sweep run", "…, and when is it removed?"); inside
	// a clause it states a condition ("zorpd hangs when the disk is full;
	// what now?"), and the answer is no time.
	{name: "time",
		ask: regexp.MustCompile(`(?i)(^\s*|[.?!;,:]\s*|\b(and|or|but)\s+)when\b|\b(what time|what day|which day|what date|how often|how long)\b`),
		has: regexp.MustCompile(`(?i)\b\d{1,2}[:.]\d{2}\b|\b(1[89]|20)\d{2}\b|\b\d{1,2}(st|nd|rd|th)\b|\b(mon|tues|wednes|thurs|fri|satur|sun)days?\b|\b(january|february|march|april|may|june|july|august|september|october|november|december)\b|\b(daily|weekly|monthly|yearly|nightly|hourly|every|each|tomorrow|yesterday|midnight|noon|morning|evening|night|quarter|minutes?|hours?|days?|weeks?|months?|years?|am|pm)\b`)},
	// A question that asks when software changed asks, in its documents'
	// words, for a release: "when will Go drop the setting" is answered
	// by "… will be removed in Go 1.27", "which version of the LGPL" by
	// "LGPL v2.1". The answer holds a version number.
	{name: "version",
		ask:      regexp.MustCompile(`(?i)\b(which|what) (\w+ )?(version|release)s?\b|\bin which (version|release)\b|\bsince (when|which)\b|\bwhen (was|were|did|will|is|does|do)\b[^?]*\b(add|added|introduced?|removed?|drop|dropped|deprecated?|go away|gone|fixed|released?|supported|changed?|appear(ed)?)\b`),
		has:      regexp.MustCompile(`(?i)\b(v|version|release)?\s?\d+\.\d+(\.\d+)*([-+~][\w.+~]+)?\b`),
		compound: regexp.MustCompile(`(?i)\bversion control\b`)},
	{name: "place",
		ask: regexp.MustCompile(`(?i)\b(where|which (folder|directory|server|host|bucket|disk|drive|place|city|country|room|site))\b`),
		has: regexp.MustCompile("(?i)\\b(to|into|in|at|on|under|from|inside|throughout|across|near|outside|within|between)\\s+(the\\s+|a\\s+)?(?-i:[A-Z`/\"'~])|\\b(locations?|venues?|addresses)\\b|\\b(to|into|in|at|on)\\s+(the\\s+|a\\s+)?[\\w-]+\\s+(bucket|folder|directory|server|disk|drive|host|room|office|street|city|cloud|share)\\b|(^|\\s)[~/][\\w.-]+/|\\b\\w+://"),
		// "on Tuesday", "in March" are times, not places.
		not: regexp.MustCompile(`(?i)\b(on|in|at|from|to|until|between|within|since|by)\s+(the\s+)?(mon|tues|wednes|thurs|fri|satur|sun)days?\b|\b(on|in|at|from|to|until|between|within|since|by)\s+(the\s+)?(january|february|march|april|may|june|july|august|september|october|november|december)\b`)},
	// A question that asks where to look something up ("where could we
	// find which zorps wait", "how to watch a frob's progress", "list
	// all open zorps") asks for the place that shows it: the
	// sentence that says where it is listed, reported or kept, or what to
	// query ("… are listed in the zorp_waiting view"), not the one that
	// describes the thing looked for. "How do I list …" is not one: it
	// asks as often for the command that lists (the frobs a zorp archive
	// holds: its -l option).
	{name: "lookup",
		ask: regexp.MustCompile(`(?i)\b(where|how) (can|do|could|should|would) (i|we|you|one) (see|find|view|check|monitor|watch|track|look up|inspect)\b|\bhow (to|do i|can i) (see|view|monitor|watch|track|inspect)\b|\blist (all|every)\b|\bhow far along\b`),
		has: regexp.MustCompile(`(?i)\b(listed|shown|reported|displayed|recorded|logged|visible|kept|tracked) (in|by|under|at|on)\b|\b(report|reports|show|shows|list|lists) (their|its|the) \w+ (in|on)\b|\bquery(ing)? the\b|\bsystem (view|catalog|table)\b`)},
	{name: "amount",
		ask:    regexp.MustCompile(`(?i)\b(how much|how many|what (was|is|were|are) the (total|cost|price|amount|fee|sum)|cost|price)\b`),
		has:    regexp.MustCompile(`(?i)(€|\$|£|¥|\b(eur|usd|gbp|chf|jpy|cad|aud)\b)\s?\d|\d[\d,.]*\s?(€|\$|£|%|\b(eur|usd|gbp|euros?|dollars?|pounds?|percent)\b)|\b\d+([.,]\d+)?\b`),
		prefer: toSet(`total due amount sum balance price cost`)},
	// A question that asks how far something may go ("the maximum
	// number of zorps per frob", "how many frobs can one zorp hold at
	// most") asks for a limit: the sentence that states one ("at most
	// 32", "up to 8 keys", "limited by FROBLEN", "shorter than 4 KB", "in
	// the range [8, 2048]", "truncates names to 16 characters"), not one
	// with any number. "max" in a compound ("a max-frob") is a name.
	{name: "limit",
		ask: regexp.MustCompile(`(?i)(^|[^\w-])(max|maximum|at most|biggest|largest|longest|upper limit|limit on|how (big|large|long) can)([^\w-]|$)`),
		has: regexp.MustCompile(`(?i)\b(max|maximum|at most|up to|limit|limits|limited|exceeds?|unlimited|largest|longest|(more|longer|larger|bigger|greater|shorter|smaller|less|fewer) than|in the range|truncat(e|es|ed|ing) \w+( \w+)? to)\b`)},
	{name: "person",
		ask: regexp.MustCompile(`(?i)\b(who|whom)\b`),
		has: regexp.MustCompile(`\S\s+[A-Z][a-z]+|^[A-Z][a-z]+:`)},
	// A question that asks who may do something ("who may rename a
	// zorp", "which privilege does dropping a frob take") asks for a role,
	// not a name: the sentence that says who is allowed ("You must be the
	// owner of the zorp", "Only superusers can …", "requires the FROB
	// privilege"). It is no question for a person (askedKinds).
	{name: "permission",
		ask:    regexp.MustCompile(`(?i)\bwho (can|could|may|might|must|is allowed|are allowed|is permitted|gets to|has to|needs to)\b|\b(what|which) (privileges?|roles?|rights?)\b|\b(allowed|permitted|permission) to\b`),
		has:    regexp.MustCompile(`(?i)\bmust (be|become) (the |a |an )?(\w+'s )?(owners?|members?)\b|\bmust (own|hold|be granted)\b|\bmust have (the |a )?(\w+ ){0,2}(privileges?|rights?|permissions?|options?|attributes?|roles?)\b|\bonly (the )?(superusers?|owners?|members?)\b|\bsuperusers?\b|\b(owner|owners|member|members) of\b|\b(is|are) (allowed|permitted) to\b|\bprivileges? (on|to|is required|are required)\b|\b(requires?|required|needs?) (the )?\w+ privileges?\b`),
		prefer: toSet(`must only`)},
	// A question that asks why is answered by the sentence that gives a
	// reason: "because", "so that", "for historical reasons", "for
	// backward compatibility".
	{name: "reason",
		ask: regexp.MustCompile(`(?i)\bwhy\b`),
		has: regexp.MustCompile(`(?i)\b(because|since|so that|due to|as a result|in order to|reasons?|rejected|fails?|failed|(for|of) (backwards? )?compatibility)\b`)},
	// A question that leaves something out asks what happens then: "what
	// does the archiver name its output when I pass no name", "which mode
	// does the tool pick if I don't set one", "the default timeout". The answer
	// is the sentence that says so ("The default is …", "If no mode is
	// specified, …"), not one that only shares the subject's words. "Does
	// it do X automatically" asks the same: whether X is done unasked, as
	// does "what if I never close it": a thing left undone is done by
	// default, and the answer's "If you do not close it, …" says how. So
	// does "without giving a mode": what is used when none is given, and
	// so do "with no spool given", "when no path is set" and "with no
	// FROB clause".
	// "default" inside a name asks for none: the package "zorp-defaults",
	// a "non-default" mode, "default-frobber".
	{name: "default",
		ask:      regexp.MustCompile(`(?i)\bdefaults?\b|\bautomatic(ally)?\b|\bwithout (\w+ing )?(a|an|any)\b|\bif (i|you|we|one) (don't|do not|didn't|did not|never) (\w+ly )?\w+\b|\bif (i|you|we|one) (omit|leave out|leave off)\b|\b(with|when|if) no \w+( \w+){0,2} (is |are )?(given|supplied|specified|set|provided|passed)\b|\bwith no [\w. ]{1,30}? clause\b`),
		has:      regexp.MustCompile(`(?i)\b(default|defaults|by default)\b|\bif (no|none)\b|\bif (it is |they are )?(not|never) (specified|given|set|supplied|provided)\b|\bif (you|one|we) (do not|don't|never) \w+|\b(if|when|is) omitted\b|\botherwise\b`),
		prefer:   toSet(`default defaults`),
		compound: regexp.MustCompile(`(?i)[\w.+]+-defaults?\b|\bdefaults?-\w[\w-]*`)},
	// A question that asks what something needs asks for a condition:
	// "what must the mirror have so that syncing works", "which privilege
	// is required to …". The answer is the sentence that states the
	// condition ("… is only allowed if …", "… must have …"), which often
	// comes after the one that describes the thing itself.
	{name: "requirement",
		ask: regexp.MustCompile(`(?i)^\s*(what|which)\b[^?]*\b(needs?|needed|requires?|required|prerequisites?)\b`),
		has: regexp.MustCompile(`(?i)\bonly (be )?(allowed|possible|permitted|supported|accepted|works?|succeeds?) (if|when)\b|\bonly if\b|\bmust (be|have|hold|own)\b|\b(requires|required|prerequisites?)\b|\b(needs?|needed)\b|\bat least one\b`)},
	// A question that asks what happens (when, if) asks for a
	// consequence: "what happens when two writers lock the same page".
	// The answer says what follows ("… will cause an error", "… is
	// ignored", "nothing is done"), not one that only restates the
	// situation the question describes.
	{name: "consequence",
		ask: whatHappens,
		has: regexp.MustCompile(`(?i)\b(will|would|may|can) (cause|raise|fail|abort|result in|be (ignored|skipped|rejected|discarded|lost|raised|reported))\b|\b(causes|caused|results in|is raised|fails|is (ignored|skipped|rejected|discarded|lost|reported))\b|\bnothing (is done|happens)\b|\bno (effect|harm)\b|\b(will|would|may|can) (provoke|trigger|emit|lead to|produce)\b|\b(provokes|triggers|emits|leads to)\b|\b(errors?|violations?|warnings?)\b`)},
	// A question that asks what an error or a panic says ("what error
	// string does frob.Open return", "what does it panic with", "the
	// exact panic message"), or what a program prints or logs ("which
	// message does zorpd log as long as the spool is busy", "what does
	// that warning say", "in which case does the frob tool report it") is
	// answered by the line of code that makes the message: a literal
	// string handed to a call that builds an error, panics or fails
	// (errors.New, fmt.Errorf, panic, log.Fatalf), prints (print,
	// fmt.Printf), logs (log.Printf) or warns. "Which error type" or
	// "error code" asks for a name or a number instead.
	{name: "message",
		ask: regexp.MustCompile(`(?i)\b(what|which)('s|\s+is|\s+was)?(\s+\w+){0,3}?\s+(errors?|panics?|warnings?)\b|\bpanics?\s+with\b|\b(error|panic|warning|failure)\s+(message|string|text)s?\b` +
			`|\b(what|which) (\w+ )?messages?\b|\bwhat does (the|that|this|it) (message|warning|error) say\b|\b(what|which) (\w+ ){0,3}(does|do) (it|the \w+( \w+)?) (log|print|say|report)\b`),
		has:      regexp.MustCompile("(?i)\\b(\\w*(err|panic|throw|fatal|fail)\\w*(\\.\\w+)?|print|\\w*printf|\\w*println|\\w*warn\\w*|log\\.\\w+)\\s*\\(([^()\"`]*\\()*[^()\"`]*[\"`]"),
		compound: regexp.MustCompile(`(?i)\berror (types?|codes?|class(es)?|handling)\b`),
		search:   regexp.MustCompile(`(?i)\b(error|panic)s?\s+(when|if|on|after|for|while)\b`),
		codeLine: true},
	// A question that asks which bug a change closed ("which bug was
	// closed when …", "what's the bug number") is answered by the entry
	// that names one: "(Closes: #123456)", "bug #123456".
	{name: "bug",
		ask:    regexp.MustCompile(`(?i)\b(which|what)\b[^?]*\bbugs?\b[^?]*\b(close|closed|closes|fixed|number)\b|\bbug (number|report)s?\b`),
		has:    regexp.MustCompile(`(?i)\bcloses:\s*#?\d{3,}|#\d{4,}\b|\bbugs?\s+#?\d{4,}`),
		prefer: toSet(`closes`)},
	// A question that asks whether something is so ("can I …", "does
	// it …", "is there …") is answered by a sentence that says how far it
	// is: one that denies or limits ("… never follows frob links", "Only
	// zorp volumes can be …"), or says it always holds ("frobd always
	// syncs first"). A sentence that only describes the thing answers
	// neither way.
	{name: "polar",
		ask: regexp.MustCompile(`(?i)^\s*(can|could|does|do|did|is|are|was|were|will|would|should|may|must|has|have)\b`),
		has: regexp.MustCompile(`(?i)\b(not|no|never|only|cannot|neither|nor|unless|except|always|none)\b|n't\b`)},
	{name: "steps",
		ask: regexp.MustCompile(`(?i)^\s*(how (do|can|should|would|to) (i|we|you|one)?|how to)\b|\b(steps?|procedure|instructions?)\b`),
		// An instruction opens with its verb, quotes a command, or names
		// the option to use ("… fails unless you use the FORCE option").
		has: regexp.MustCompile("(?i)^(run|use|open|click|copy|mount|select|type|enter|install|restart|start|stop|check|go|set|add|remove|edit|create|delete)\\b|`[^`]+`|\\b(use|pass|give|add|specify) (the |a )?[\\w-]+ (option|flag|switch)\\b")},
	// A question that asks which file ("which header was the port based
	// on", "what file does frobctl save its report to", "which paths does
	// the loader try for it") is answered by the unit that names one: a
	// file name with an extension files are given ("e_frob.c",
	// "frob.conf", "go.mod") or a path ("/etc/frob/rules"). "What must
	// the file declare" asks about a file, not for one, and "file system"
	// or "file mode" is no file.
	{name: "file",
		ask:      regexp.MustCompile(`(?i)\b(which|what) (\w+ ){0,2}(files?|headers?|filename|file name|path)\b`),
		has:      regexp.MustCompile(`(?i)\b[\w+-]+\.(c|h|cc|go|py|pl|rb|js|json|xml|html?|txt|conf|cfg|ini|toml|ya?ml|md|sh|patch|diff|so|pem|crt|db|gz|xz|bz2|zip|tar|tgz|deb|pdf|ps|png|jpe?g|gif|svg|service|socket|timer|pc|csv|sql)\b|\bgo\.(mod|sum|work)\b|(^|[\s"'(=\x60])/[\w.-]+/[\w./-]+`),
		compound: regexp.MustCompile(`(?i)\bfile (systems?|descriptors?|modes?|permissions?|sizes?)\b|\b(what|which) (does|do|did|is|are|was|were|has|have|can|could|should|must|would|will) (the |a |an |my |this |that |its |each |every )?(files?|headers?|path)\b`)},
}

// permissionKind is the kind of answer that says who may do something.
func permissionKind() askKind {
	return askKinds[slices.IndexFunc(askKinds, func(k askKind) bool { return k.name == "permission" })]
}

// whatHappens finds a question that asks what happens: "what happens
// when …", "what will happen if …". Its "when" opens a condition, not a
// question for a time (see askedKinds).
var whatHappens = regexp.MustCompile(`(?i)\bwhat (happens|will happen|would happen|happened)\b`)

// in reports whether text holds this kind of answer.
func (k askKind) in(text string) bool {
	if k.not != nil {
		text = k.not.ReplaceAllString(text, " ")
	}
	return k.has.MatchString(text)
}

// askedKinds returns the kinds of answer a question asks for, in order,
// read in the sentences that ask (askingPart): a statement of the asker's
// situation ("When the spool fills up, zorpd stops.") asks for nothing.
func askedKinds(query string) []askKind {
	type at struct {
		k   askKind
		pos int
	}
	var found []at
	query = askingPart(query)
	happens := whatHappens.FindStringIndex(query)
	var sentences []string // of query, split once, when a kind needs them
	for _, k := range askKinds {
		var loc []int
		if q := withoutCompounds(k, query); q != query {
			loc = findInSentences(k.ask, q)
		} else if loc = k.ask.FindStringIndex(query); loc == nil {
			if sentences == nil {
				sentences = splitSentences(query)
			}
			loc = findInSplit(k.ask, query, sentences)
		}
		if loc == nil && k.search != nil && !strings.Contains(query, "?") {
			loc = k.search.FindStringIndex(query)
		}
		if loc == nil {
			continue
		}
		if k.name == "person" && findInSentences(permissionKind().ask, query) != nil {
			// "who can rename it" asks for a role: the permission kind.
			continue
		}
		if k.name == "time" && happens != nil && loc[0] > happens[0] && strings.EqualFold(query[loc[0]:loc[1]], "when") {
			// "what happens when a writer dies": the condition of a
			// consequence, not a question for a time.
			continue
		}
		found = append(found, at{k, loc[0]})
	}
	slices.SortStableFunc(found, func(a, b at) int { return a.pos - b.pos })
	out := make([]askKind, len(found))
	for i, f := range found {
		out[i] = f.k
	}
	return out
}

// withoutCompounds blanks the kind's compound nouns in query, keeping
// every other byte where it was.
func withoutCompounds(k askKind, query string) string {
	if k.compound == nil || !k.compound.MatchString(query) {
		return query
	}
	return k.compound.ReplaceAllStringFunc(query, func(c string) string { return strings.Repeat(" ", len(c)) })
}

// findInSentences is re.FindStringIndex over the question, and then over
// each of its sentences, so that a pattern anchored at the start ("how do
// I …") finds the sentence that asks after one that tells the asker's
// situation ("The frob panel went blank. How do I wake it?").
func findInSentences(re *regexp.Regexp, query string) []int {
	if loc := re.FindStringIndex(query); loc != nil {
		return loc
	}
	return findInSplit(re, query, splitSentences(query))
}

// findInSplit is findInSentences over the query's sentences, split.
func findInSplit(re *regexp.Regexp, query string, sentences []string) []int {
	if len(sentences) < 2 {
		return nil
	}
	at := 0
	for _, s := range sentences {
		i := strings.Index(query[at:], s)
		if i < 0 {
			continue
		}
		at += i
		if loc := re.FindStringIndex(s); loc != nil {
			return []int{at + loc[0], at + loc[1]}
		}
		at += len(s)
	}
	return nil
}
