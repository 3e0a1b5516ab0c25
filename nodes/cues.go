package nodes

import (
	"regexp"
	"strconv"
	"strings"
)

// Cues the route node reads besides the classifier. Each is a list of
// alternatives that TestRuleAlternativesEarnTheirPlace checks against the
// training data, like the rules.
var (
	// personalCues point at the user's own documents: "the contract",
	// "clause 14.3", "invoice 2024-03-117", "the report", "according to my
	// notes", "in our docs" ("in my car" or "from my savings account" name
	// the user's things, not a document: ownerCues). A
	// question with one stays local whatever the probe finds, and is never
	// sent to the web: a user's invoice is not on the web.
	personalCues = []*regexp.Regexp{
		regexp.MustCompile(`(?i)\b(the|my|our|this|that) (contract|agreement|lease|invoice|report|statement|receipt|handbook|manual|minutes|memo|proposal|nda|bylaws|readme|changelog|design doc|notes|meeting notes|budget sheet|letter)\b`),
		regexp.MustCompile(`(?i)\b(clause|section|article) \d+(\.\d+)*\b`),
		regexp.MustCompile(`(?i)\binvoice (no\.? |number |#)?[\w-]*\d`),
		regexp.MustCompile(`(?i)\baccording to (my|our) \w+`),
		regexp.MustCompile(`(?i)\b(in|from) (my|our) (notes|files|documents|docs|records|emails|inbox|folders?|drive|diary|journal|papers)\b`),
	}
	// referenceCues are exact references into a document ("clause 14.3",
	// "section 7"): they need a keyword search.
	referenceCues = []*regexp.Regexp{
		regexp.MustCompile(`(?i)\b(clause|section|article|paragraph) \d+(\.\d+)*\b`),
	}
	// ownerCues are first-person possessives: a question the classifier
	// calls local with them is about the user's things, so a weak probe
	// does not send it to the web or to a general-knowledge answer. "I" and
	// "we" own nothing: "how do I make pancakes" is general knowledge.
	ownerCues = []*regexp.Regexp{
		regexp.MustCompile(`(?i)\b(my|our|mine|ours)\b`),
	}
	// freshCues mark time-sensitive questions: the answer changes, so the
	// web has it and the files may be out of date.
	freshCues = []*regexp.Regexp{
		regexp.MustCompile(`(?i)\b(latest|newest|most recent|upcoming|reigning)\b`),
		regexp.MustCompile(`(?i)\b(current|currently|right now|at the moment|these days|nowadays)\b`),
		regexp.MustCompile(`(?i)\b(this|next) (year|season|week|month)('s)?\b`),
		regexp.MustCompile(`(?i)\bwhen (is|are|does|do|will) (the )?next\b`),
	}
)

// changeCues open a request to change files, in the words of the
// policy's shell actions (routerdata/policy.json: commands that write,
// delete, move, rename, change permissions or run processes; derive.go's
// writers): "delete the old logs", "compress the photos folder". Naming
// files and their sizes or dates does not make such a request a question
// about the files as objects.
var changeCues = []*regexp.Regexp{
	regexp.MustCompile(`(?i)^\s*((can|could|would|will) you |please )?` + changeVerbs),
	regexp.MustCompile(`(?i)^\s*((can|could|would|will) you |please )?(change|set)s? (the )?(permissions?|owner|group|mode)\b`),
	// "find the old logs and delete them"
	regexp.MustCompile(`(?i)\b(and|then) (then )?` + changeVerbs),
}

// changeVerbs are the verbs of changeCues, with their -s forms ("removes
// all files ...").
const changeVerbs = `(delete|remove|erase|move|copy|copie|rename|archive|compress|zip|unzip|extract|truncate|split|install|mount|unmount|create|make|write|save|append|overwrite|replace|run|execute|apply|kill)s?\b`

// questionPattern opens a question rather than a request: "how do I",
// "what", "why", "where".
var questionPattern = regexp.MustCompile(`(?i)^\s*(how|what|what's|which|why|where|when|who|whose|is|are|does|do|did|can i|should)\b`)

// infoRequestCues open a request for information rather than for an
// action: "tell me my balance", "show me the transactions", "check my
// credit score", "summarise the report". Asked about the user's own
// things, it is a question.
var infoRequestCues = []*regexp.Regexp{
	regexp.MustCompile(`(?i)^\s*((can|could|would|will) you |please )?(tell|show|give) me\b`),
	regexp.MustCompile(`(?i)^\s*((can|could|would|will) you |please )?(let me know|look up|find out)\b`),
	regexp.MustCompile(`(?i)^\s*((can|could|would|will) you |please )?(check|list|read)\b`),
	regexp.MustCompile(`(?i)^\s*((can|could|would|will) you |please )?(explain|describe|summari[sz]e|define)\b`),
	regexp.MustCompile(`(?i)^\s*remind me (what|when|where|how|who|which|if|whether)\b`),
}

// questionCues find a question that questionPattern's first word misses:
// one asked after a lead-in ("I set the option but nothing changed, how do
// I ...", "besides the owner, who may ..."), or opened by a modal or an
// auxiliary (modalQuestion).
var questionCues = []*regexp.Regexp{
	regexp.MustCompile(`(?i)[,;:]\s*(and |but |so )?(how|what|which|why|where|when|who|whose)\b`),
	regexp.MustCompile(`(?i)\bbut (how|what|which|why|where|when|who)\b`),
}

// modalOpener is a modal or auxiliary verb opening a question: "can the
// parser read ...", "will the tool keep ...", "has the format changed".
var modalOpener = regexp.MustCompile(`(?i)^\s*(can|could|will|would|may|might|must|shall|has|have|had|was|were)\s+(\S+)`)

// addressee are the words after a modal that make it a request to
// graphrag, not a question about something: "can you delete ...",
// "would you please ...".
var addressee = map[string]bool{"you": true, "u": true, "ya": true, "please": true, "someone": true, "somebody": true}

// modalQuestion reports whether q opens with a modal or an auxiliary
// asked of something other than graphrag: "can the parser read ..." asks
// whether it can; "can you delete ..." asks graphrag to act.
func modalQuestion(q string) bool {
	m := modalOpener.FindStringSubmatch(q)
	return m != nil && !addressee[strings.ToLower(strings.Trim(m[2], ",.!?"))]
}

// questionCue reports whether a query is asked as a question. After a
// lead clause the main clause decides: "if the import stops halfway, are
// the rows kept" asks, "when you are done, move the logs" requests.
func questionCue(q string) bool {
	if main, ok := mainClause(q); ok {
		return questionCue(main)
	}
	return questionPattern.MatchString(q) || modalQuestion(q) || anyMatch(questionCues, q) || closingAsk(q) || closingQuestion(q)
}

// closingQuestion reports whether a query that tells what was done ends
// with a clause asked as a question: "I switched the column to lz4 with
// SET COMPRESSION, are the existing rows recompressed", "I ran LISTEN in a
// transaction. When does it start working". The story before it is the
// question's context, not a request.
func closingQuestion(q string) bool {
	i := strings.LastIndexAny(strings.TrimRight(q, " ?"), ",;.")
	if i < 0 {
		return false
	}
	last := q[i+1:]
	return (last == "" || last[0] == ' ') && questionPattern.MatchString(last) && len(strings.Fields(last)) >= 3
}

// leadClause opens a query with a condition or a time, up to its comma:
// "if I rename the column, ...", "once the queue is full, ...". The word
// after the conjunction is kept to tell a clause ("when I restart it, ...")
// from a question ("when is the next release, ...").
var leadClause = regexp.MustCompile(`(?i)^\s*(if|when|whenever|once|after|before|unless|suppose|supposing)\s+([^\s,;:]+)[^,;:?]*[,;:]\s*`)

// questionAuxiliaries open a question after "when" ("when is ...", "when
// does ..."): such a "when" asks, it opens no lead clause.
var questionAuxiliaries = toSet(`is are was were am be do does did can could will would shall should may might must has have had`)

// mainClause returns what follows a lead clause, if the query opens with
// one and something follows it.
func mainClause(q string) (string, bool) {
	m := leadClause.FindStringSubmatchIndex(q)
	if m == nil || questionAuxiliaries[strings.ToLower(q[m[4]:m[5]])] {
		return "", false
	}
	main := q[m[1]:]
	return main, strings.TrimSpace(main) != ""
}

// closingWh is a "which" or "what" whose phrase closes the query, with
// the word before it.
var closingWh = regexp.MustCompile(`(?i)([^\s,;:]+)\s+(which|what)((?:\s+[^\s,;:]+){1,` + strconv.Itoa(maxAskedPhrase) + `})\s*$`)

// maxAskedPhrase is how many words a closing "which ..." phrase may have:
// a noun phrase ("which gzip level", "what file system type"); a longer
// tail is a clause.
const maxAskedPhrase = 4

// closingAsk reports whether a query asks as a fragment, closing on
// "which" or "what" and a phrase of content words, asked in place after a
// preposition, a verb's auxiliary or a pronoun: "the spool folder,
// shared with which service", "the daemon is started by what user". A relative "which"
// follows its noun ("the logs which contain errors") or a conjunction
// ("... and which are older"), and brings a subject, an auxiliary or a
// preposition ("the folder which I made"): function words.
func closingAsk(q string) bool {
	m := closingWh.FindStringSubmatch(q)
	if m == nil {
		return false
	}
	if before := bareWord(m[1]); !functionWords[before] || conjunctions[before] {
		return false
	}
	for _, w := range strings.Fields(m[3]) {
		if functionWords[bareWord(w)] {
			return false
		}
	}
	return true
}

// conjunctions join a relative clause to the one before it: "... whose
// names begin with x and which contain y".
var conjunctions = toSet(`and or but nor`)

// bareWord is w in lower case without surrounding punctuation or the
// piece of a contraction after its apostrophe ("aren't" is "aren").
func bareWord(w string) string {
	w, _, _ = strings.Cut(strings.ToLower(strings.Trim(w, `.!?"'`)), "'")
	return w
}

// asksSomething reports whether a query asks for information: a question
// ("how do I ...", "... ?") or a request to be told something ("tell me
// ...", "check ..."), not a request to act.
func asksSomething(q string) bool {
	return questionCue(q) || strings.HasSuffix(strings.TrimSpace(q), "?") || anyMatch(infoRequestCues, q)
}

// anyMatch reports whether one of the patterns matches q.
func anyMatch(pats []*regexp.Regexp, q string) bool {
	for _, p := range pats {
		if p.MatchString(q) {
			return true
		}
	}
	return false
}

// filesOfSubject asks which files someone or something does something
// with: "what files does the installer write", "which folders do the
// tests create", opening the query or a clause. The subject is the word
// after the auxiliary.
var filesOfSubject = regexp.MustCompile(`(?i)(?:^|[,;:])\s*(?:and |but |so )?(which|what) (files?|folders?|director(?:y|ies)|paths?)\s+(does|do|did|will|would|can|could|should|may|might|must)\s+([^\s,;:?]+)`)

// userSubjects are the subjects of a question about the user's files as
// objects: "which files did I change", "what files do we keep".
var userSubjects = toSet(`i we you u`)

// programsFiles reports whether a query asks which files a program or a
// function uses ("what folders does the updater scan"): what its code or
// manual says, not a listing of the user's files.
func programsFiles(q string) bool {
	m := filesOfSubject.FindStringSubmatch(q)
	return m != nil && !userSubjects[strings.ToLower(m[4])]
}
