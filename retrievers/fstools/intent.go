package fstools

import (
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/internal/text"
)

// Tool names one of the filesystem tools.
type Tool string

const (
	ToolCount       Tool = "count"
	ToolList        Tool = "list"
	ToolFind        Tool = "find"
	ToolStat        Tool = "stat"
	ToolTree        Tool = "tree"
	ToolFolderSizes Tool = "folder_sizes"
	ToolUsageByType Tool = "usage_by_type"
	// ToolMentions counts the documents whose indexed text holds a term
	// (needs Options.Index).
	ToolMentions Tool = "mentions"
	// ToolStore answers questions about the store itself: its size, the
	// folders ingested and when (needs an Index that is a StoreReporter).
	ToolStore Tool = "store"
)

// Intent is what Answer makes of a plan: a tool and its arguments, and the
// rule that chose it.
type Intent struct {
	Tool   Tool
	Filter Filter
	// SortBy orders a listing (ToolList, ToolFind); Reverse turns its
	// natural order (newest, largest, A to Z) around.
	SortBy  SortKey
	Reverse bool
	// Limit is how many entries to show.
	Limit int
	// Target is the file ToolStat describes (a name or a path).
	Target string
	// Dir is where ToolTree and ToolFolderSizes start ("" for every root).
	Dir string
	// Term is what ToolMentions looks for in the documents' text.
	Term string
	// Reason names the rule that fired, for traces and tests.
	Reason string
}

// Interpret chooses a tool for a plan with deterministic rules over the
// query text (plan.Query, or the keywords when it is empty), taking the
// plan's FileTypes, Time and SourceHint as given and reading further
// filters — types, time spans, sizes, names, a number of results — from
// the text. It never fails: a question it cannot place lists the newest
// files that pass the filters.
func (t *Tools) Interpret(plan graphrag.Plan) Intent {
	q := plan.Query
	if strings.TrimSpace(q) == "" {
		q = strings.Join(plan.Keywords, " ")
	}
	p := parse(q)
	now := t.opts.Now()
	in := Intent{Limit: t.opts.Limit}

	// Filters.
	if len(plan.FileTypes) > 0 {
		in.Filter.Types = append([]string(nil), plan.FileTypes...)
	} else {
		in.Filter.Types = p.types()
	}
	in.Filter.Window = plan.Time
	if in.Filter.Window == graphrag.TimeAny {
		in.Filter.Window = p.window()
	}
	in.Filter.Since, in.Filter.Until = p.span(now)
	in.Filter.MinSize, in.Filter.MaxSize = p.sizes()
	name, target := p.names()
	in.Filter.Name = name
	in.Filter.Source = plan.SourceHint
	if in.Filter.Source == "" {
		in.Filter.Source = p.folder()
	}
	if n := p.limit(); n > 0 {
		in.Limit = n
	}

	// A folder is the subject ("which folders are biggest"), not merely
	// where to look ("files in the current directory").
	folderWord := p.has("folders", "directories", "dirs", "subfolders", "subdirectories", "sub-directories", "sub-folders",
		"each folder", "each directory", "which folder", "which directory", "what folder", "what directory",
		"per folder", "per directory", "by folder", "by directory", "folder sizes", "directory sizes", "folder size",
		"directory size", "biggest folder", "largest folder", "biggest directory", "largest directory", "size of each")
	filtered := name != "" || len(in.Filter.Types) > 0 || in.Filter.MinSize != 0 || in.Filter.MaxSize != 0 ||
		in.Filter.Window != graphrag.TimeAny || !in.Filter.Since.IsZero() || !in.Filter.Until.IsZero()
	// "tree" in shell wording ("the current directory tree") means
	// recursively; it asks for a tree only when nothing is searched for.
	treeWord := p.has("structure", "hierarchy", "layout", "organized", "organised", "organization", "organisation") ||
		p.has("tree", "subfolders", "subdirectories", "sub-directories") && !filtered && !p.has("find", "search", "locate")
	sizeWord := p.has("size", "sizes", "biggest", "largest", "heaviest", "big", "large", "space", "disk", "du", "storage", "bytes", "how much")
	perFolder := p.has("per folder", "each folder", "by folder", "per directory", "each directory", "by directory", "folder sizes", "directory sizes")
	statWord := p.has("when was", "when were", "when did", "how big is", "how large is", "how old is", "size of", "metadata", "details of", "details about", "details for", "info about", "info on", "information about", "information on", "created", "creation", "stat", "properties of", "last modified", "modification time", "extended file information")

	term := mentionTerm(p)
	switch {
	case aboutStore(p):
		in.Tool, in.Reason = ToolStore, "asks about the store itself"
	case term != "":
		in.Tool, in.Term, in.Reason = ToolMentions, term, "asks which files mention a term"
		in.Filter.Name = ""
		if p.has("how many", "count", "number of") && p.limit() == 0 {
			in.Limit = countNamed
		}
	case target != "" && statWord:
		in.Tool, in.Target, in.Reason = ToolStat, target, "asks about one file's metadata"
		in.Filter.Name = ""
	case folderWord && (perFolder || sizeWord || p.has("most files", "files per", "files in each")) && !p.has("how many"):
		in.Tool, in.SortBy, in.Reason = ToolFolderSizes, BySize, "asks for folder sizes"
		if p.has("most files", "files per", "files in each", "number of files") {
			in.SortBy = ByFiles
		}
	case treeWord || folderWord && !filtered && p.has("display", "show", "list", "print", "what") && !p.has("files", "file", "how many", "count", "number of"):
		in.Tool, in.Reason = ToolTree, "asks for the directory structure"
	case p.has("how many", "count", "number of", "total number", "tally", "wc"):
		in.Tool, in.SortBy, in.Reason = ToolCount, ByModified, "asks how many"
	case p.has("disk", "space", "storage", "usage", "take up", "takes up", "taking up", "how much room", "by type", "per type", "each type", "file types", "kinds of files", "total size", "du") ||
		p.has("size of") && target == "":
		if folderWord {
			in.Tool, in.SortBy, in.Reason = ToolFolderSizes, BySize, "asks for disk usage by folder"
		} else {
			in.Tool, in.Reason = ToolUsageByType, "asks for disk usage"
		}
	case target != "" && p.has("how big", "how large", "size", "when", "modified", "changed", "edited"):
		in.Tool, in.Target, in.Reason = ToolStat, target, "asks about one file"
		in.Filter.Name = ""
	case p.has("largest", "biggest", "smallest", "heaviest", "huge", "tiniest", "by size", "filesize", "file size", "their size", "with size", "sizes", "in size") ||
		in.Filter.MinSize != 0 || in.Filter.MaxSize != 0:
		in.Tool, in.SortBy, in.Reason = ToolList, BySize, "asks for files by size"
		in.Reverse = p.has("smallest", "tiniest", "smallest to largest", "ascending", "increasing")
	case p.has("recent", "recently", "latest", "newest", "oldest", "modified", "changed", "edited", "updated", "touched", "accessed", "timestamps", "last", "new", "old", "added", "created", "since", "ago") ||
		in.Filter.Window != graphrag.TimeAny || !in.Filter.Since.IsZero() || !in.Filter.Until.IsZero():
		in.Tool, in.SortBy, in.Reason = ToolList, ByModified, "asks for files by time"
		in.Reverse = p.has("oldest", "least recent", "least recently", "earliest", "ascending")
	case in.Filter.Name != "":
		in.Tool, in.SortBy, in.Reason = ToolFind, ByName, "names a file or pattern"
	case p.has("alphabetical", "alphabetically", "by name", "based on name", "a to z", "a-z", "sorted by name", "sort by name", "names"):
		in.Tool, in.SortBy, in.Reason = ToolList, ByName, "asks for files by name"
	default:
		in.Tool, in.SortBy, in.Reason = ToolList, ByModified, "lists the newest matching files"
	}
	if p.has("reverse", "reversed", "z to a", "z-a") {
		in.Reverse = !in.Reverse
	}
	if (in.Tool == ToolTree || in.Tool == ToolFolderSizes) && isPathLike(target) {
		in.Dir = target // refused or not found when run, and said so
	} else if (in.Tool == ToolTree || in.Tool == ToolFolderSizes) && in.Filter.Source != "" {
		if _, err := t.starts(in.Filter.Source); err == nil {
			in.Dir, in.Filter.Source = in.Filter.Source, ""
		}
	}
	return in
}

// parsed is a question split into words, with quoted strings kept whole.
type parsed struct {
	orig   []string // words as written (punctuation trimmed)
	low    []string // lower-case words
	quoted []string // text inside quotes, as written
	norm   string   // " " + lower-case words joined by spaces + " "
}

// quoteRe finds quoted text. A single quote quotes only from the start of
// a word to the end of one: the apostrophes of "What's the name … I don't"
// quote nothing.
var quoteRe = regexp.MustCompile(`"([^"]+)"|“([^”]+)”|(?:^|[^\pL\pN])'([^']+)'(?:[^\pL\pN]|$)|` + "`([^`]+)`")

func parse(q string) parsed {
	var p parsed
	q = strings.ToValidUTF8(q, " ")
	for _, m := range quoteRe.FindAllStringSubmatch(q, -1) {
		for _, g := range m[1:] {
			if g != "" {
				p.quoted = append(p.quoted, g)
			}
		}
	}
	for _, f := range strings.Fields(q) {
		w := strings.TrimFunc(f, func(r rune) bool {
			return unicode.IsPunct(r) && r != '*' && r != '?' && r != '.' && r != '_' && r != '-' && r != '/' || r == '"' || r == '\'' || r == '“' || r == '”' || r == '`'
		})
		w = strings.TrimRight(w, ".?")
		w = strings.TrimLeft(w, "(")
		w = strings.TrimRight(w, ")")
		if w == "" {
			continue
		}
		p.orig = append(p.orig, w)
		p.low = append(p.low, strings.ToLower(w))
	}
	p.norm = " " + strings.Join(p.low, " ") + " "
	return p
}

// has reports whether any phrase occurs as whole words.
func (p parsed) has(phrases ...string) bool {
	for _, ph := range phrases {
		if strings.Contains(p.norm, " "+ph+" ") {
			return true
		}
	}
	return false
}

var fileNouns = map[string]bool{"file": true, "files": true, "document": true, "documents": true, "docs": true, "doc": true}

// pluralTypes are plural words that name kinds of files on their own.
var pluralTypes = map[string]bool{
	"pdfs": true, "images": true, "photos": true, "pictures": true, "pics": true, "documents": true, "docs": true,
	"spreadsheets": true, "sheets": true, "presentations": true, "slides": true, "videos": true, "movies": true,
	"songs": true, "music": true, "audio": true, "archives": true, "ebooks": true, "emails": true, "logs": true,
	"scripts": true, "notes": true, "markdowns": true,
}

// types finds file types in the question: "*.txt", ".bam", "pdfs",
// "the mp3 files", "PDF", "images".
func (p parsed) types() []string {
	var out []string
	add := func(t string) { out = append(out, t) }
	for i, w := range p.low {
		next := ""
		if i+1 < len(p.low) {
			next = p.low[i+1]
		}
		if i > 0 && (p.low[i-1] == "named" || p.low[i-1] == "called" || p.low[i-1] == "titled") {
			continue // "files named notes": a name, not a type
		}
		switch {
		case strings.HasPrefix(w, "*.") && isExt(w[2:]):
			add(w[2:])
		case strings.HasPrefix(w, ".") && isExt(w[1:]) && (fileNouns[next] || knownExtensions[w[1:]]):
			add(w[1:])
		case pluralTypes[w] && !(w == "documents" || w == "docs") || (w == "documents" || w == "docs") && i > 0 && p.low[i-1] == "my":
			add(w)
		case fileNouns[next] && (knownExtensions[w] || typeSynonyms[w] != nil):
			add(w)
		case len(w) >= 3 && strings.HasSuffix(w, "s") && knownExtensions[w[:len(w)-1]] && len(w) <= 6 && !commonWords[w]:
			add(w) // "jpgs", "csvs", "mp3s"
		case knownExtensions[w] && len(p.orig[i]) >= 2 && p.orig[i] == strings.ToUpper(p.orig[i]) && strings.ToUpper(w) != w:
			add(w) // "PDF", "CSV"
		}
	}
	return out
}

// commonWords are English words that look like plural extensions.
var commonWords = map[string]bool{"maps": true, "pages": true, "keys": true, "mss": true, "cs": true, "ms": true, "hs": true, "rs": true}

func isExt(s string) bool {
	if s == "" || len(s) > 10 {
		return false
	}
	letter := false
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9') {
			return false
		}
		if r >= 'a' && r <= 'z' {
			letter = true
		}
	}
	return letter
}

// window finds "today", "this week", "this month".
func (p parsed) window() graphrag.TimeWindow {
	switch {
	case p.has("today", "since this morning"):
		return graphrag.TimeToday
	case p.has("this week"):
		return graphrag.TimeThisWeek
	case p.has("this month"):
		return graphrag.TimeThisMonth
	}
	return graphrag.TimeAny
}

var (
	spanRe  = regexp.MustCompile(`(?:(not|n't)\s+(?:been\s+)?(?:\w+\s+){0,2}?)?(?:in|within|during|over|for|from)?\s*(?:the\s+)?(?:last|past|previous)\s+(?:(\d+|\w+)\s+)?(minute|min|hour|hr|day|week|month|year)s?\b`)
	agoRe   = regexp.MustCompile(`(\d+|\w+)\s+(minute|min|hour|hr|day|week|month|year)s?\s+ago\b`)
	olderRe = regexp.MustCompile(`(older|newer)\s+than\s+(?:(\d+|\w+)\s+)?(minute|min|hour|hr|day|week|month|year)s?\b`)
)

var numberWords = map[string]int{
	"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
	"nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20, "thirty": 30, "fifty": 50,
	"hundred": 100, "dozen": 12, "couple": 2, "few": 3,
}

func number(s string) (int, bool) {
	if s == "" {
		return 1, true
	}
	if n, err := strconv.Atoi(s); err == nil {
		return n, true
	}
	n, ok := numberWords[s]
	return n, ok
}

func unitDur(u string, n int) time.Duration {
	d := map[string]time.Duration{"minute": time.Minute, "min": time.Minute, "hour": time.Hour, "hr": time.Hour,
		"day": 24 * time.Hour, "week": 7 * 24 * time.Hour, "month": 30 * 24 * time.Hour, "year": 365 * 24 * time.Hour}[u]
	return time.Duration(n) * d
}

// span finds relative spans: "in the last 24 hours", "past week",
// "not modified in the last 7 days", "3 days ago", "older than 2 weeks",
// "yesterday", "this year".
func (p parsed) span(now time.Time) (since, until time.Time) {
	text := strings.TrimSpace(p.norm)
	if m := spanRe.FindStringSubmatch(text); m != nil {
		if n, ok := number(m[2]); ok {
			at := now.Add(-unitDur(m[3], n))
			if m[1] != "" {
				return time.Time{}, at
			}
			return at, time.Time{}
		}
	}
	if m := olderRe.FindStringSubmatch(text); m != nil {
		if n, ok := number(m[2]); ok {
			at := now.Add(-unitDur(m[3], n))
			if m[1] == "older" {
				return time.Time{}, at
			}
			return at, time.Time{}
		}
	}
	if m := agoRe.FindStringSubmatch(text); m != nil {
		if n, ok := number(m[1]); ok {
			return now.Add(-unitDur(m[2], n)), time.Time{}
		}
	}
	y, mo, d := now.Date()
	today := time.Date(y, mo, d, 0, 0, 0, 0, now.Location())
	switch {
	case p.has("since yesterday"):
		return today.AddDate(0, 0, -1), time.Time{}
	case p.has("yesterday"):
		return today.AddDate(0, 0, -1), today
	case p.has("this year"):
		return time.Date(y, 1, 1, 0, 0, 0, 0, now.Location()), time.Time{}
	}
	return time.Time{}, time.Time{}
}

var (
	sizeNum   = `(\d+(?:\.\d+)?)\s*(bytes|byte|b|kib|kb|k|mib|mb|m|gib|gb|g|tib|tb|t)\b`
	minSizeRe = regexp.MustCompile(`(?:bigger|larger|greater|more|over|above|exceeding|exceed|at least|min(?:imum)?)\s+(?:than\s+)?(?:size\s+)?` + sizeNum)
	maxSizeRe = regexp.MustCompile(`(?:smaller|less|under|below|at most|max(?:imum)?|up to)\s+(?:than\s+)?(?:size\s+)?` + sizeNum)
	betweenRe = regexp.MustCompile(`between\s+(\d+(?:\.\d+)?)\s*(?:(bytes|byte|b|kib|kb|k|mib|mb|m|gib|gb|g)\s+)?and\s+` + sizeNum)
	emptyRe   = regexp.MustCompile(`\b(?:size\s+(?:of\s+)?0|0\s*bytes?|empty|zero[- ]size[d]?|zero bytes)\b`)
)

func sizeOf(num, unit string) int64 {
	f, err := strconv.ParseFloat(num, 64)
	if err != nil {
		return 0
	}
	mult := map[string]float64{"": 1, "bytes": 1, "byte": 1, "b": 1, "k": 1 << 10, "kb": 1 << 10, "kib": 1 << 10,
		"m": 1 << 20, "mb": 1 << 20, "mib": 1 << 20, "g": 1 << 30, "gb": 1 << 30, "gib": 1 << 30,
		"t": 1 << 40, "tb": 1 << 40, "tib": 1 << 40}[unit]
	return int64(f * mult)
}

// sizes finds "bigger than 2MB", "smaller than 100M", "between 10 and 50
// MB", "0 bytes", "empty".
func (p parsed) sizes() (minSize, maxSize int64) {
	text := strings.TrimSpace(p.norm)
	if m := betweenRe.FindStringSubmatch(text); m != nil {
		u := m[2]
		if u == "" {
			u = m[4]
		}
		return sizeOf(m[1], u), sizeOf(m[3], m[4])
	}
	if emptyRe.MatchString(text) && !p.has("empty folders", "empty directories", "empty dirs") {
		return 0, -1
	}
	if m := minSizeRe.FindStringSubmatch(text); m != nil {
		minSize = sizeOf(m[1], m[2])
	}
	if m := maxSizeRe.FindStringSubmatch(text); m != nil {
		maxSize = sizeOf(m[1], m[2])
	}
	return minSize, maxSize
}

var limitRe = regexp.MustCompile(`\b(?:top|first|last|latest|newest|biggest|largest|smallest|oldest|recent)\s+(\d+|[a-z]+)\b|\b(\d+|[a-z]+)\s+(?:largest|biggest|newest|latest|most|recent|oldest|smallest|files|documents|entries|results|items|pdfs|images|photos)\b`)

var timeUnits = map[string]bool{"minute": true, "minutes": true, "min": true, "mins": true, "hour": true, "hours": true,
	"day": true, "days": true, "week": true, "weeks": true, "month": true, "months": true, "year": true, "years": true}

// limit finds "top 5", "the 3 largest", "ten files"; 0 when none.
func (p parsed) limit() int {
	for _, m := range limitRe.FindAllStringSubmatchIndex(strings.TrimSpace(p.norm), -1) {
		text := strings.TrimSpace(p.norm)
		var g string
		var end int
		if m[2] >= 0 {
			g, end = text[m[2]:m[3]], m[3]
		} else {
			g, end = text[m[4]:m[5]], m[5]
		}
		if g == "a" || g == "an" || g == "few" {
			continue
		}
		n, ok := number(g)
		if !ok || n <= 0 || n > 1000 {
			continue
		}
		rest := strings.Fields(text[end:])
		if len(rest) > 0 && timeUnits[rest[0]] {
			continue // "last 3 days" is a time span
		}
		return n
	}
	return 0
}

// nameStop are words before "file(s)" that say which files but not their
// names ("all files", "regular files", "large files").
var nameStop = text.NewSet(`a an the all any my our your their his her its these those this that which what
some every each other regular normal plain ordinary hidden visible large big small tiny huge largest biggest
smallest new newest old oldest recent latest modified changed edited updated readable writable executable
empty duplicate temporary temp same different many more most fewer few of in under from with named called
total number count list show display print find search get give tell how much are is do does did there
current local whole entire several individual given matching remaining following ten two three four five
six seven eight nine first last top broken symbolic linked binary open unique only just both either main
own files file documents document docs doc and or not no to for on at by up out off over than then`)

var (
	fileishRe = regexp.MustCompile(`^[\p{L}\p{N}_\-+@~#][^\s]*\.[a-zA-Z][a-zA-Z0-9]{0,9}$`)
	// quotedFileRe allows spaces: "my report.pdf" in quotes is one name.
	quotedFileRe = regexp.MustCompile(`^[^\s/\\][^/\\]*\.[a-zA-Z][a-zA-Z0-9]{0,9}$`)
	namedRe      = regexp.MustCompile(`(?i)\b(?:named|called|name|names|titled)\s+(?:like\s+|as\s+)?(\S+)`)
	startRe      = regexp.MustCompile(`(?i)\b(?:start|starts|starting|begin|begins|beginning)\s+with\s+(?:the\s+)?(?:word\s+|letter\s+)?(\S+)`)
	endRe        = regexp.MustCompile(`(?i)\b(?:end|ends|ending)\s+(?:with|in)\s+(\S+)`)
	whereRe      = regexp.MustCompile(`(?i)\b(?:where is|where's|where are|where did i put|locate|find|look for)\s+(?:my\s+|the\s+|a\s+|all\s+)?(\S+)\s*$`)
	arithRe      = regexp.MustCompile(`^[\d*+\-/() ]+$`)
	containRe    = regexp.MustCompile(`(?i)\b(?:contain|contains|containing|with)\s+(\S+)\s+in\s+(?:the\s+|their\s+|its\s+)?names?\b`)
)

// names finds a name pattern ("named X", "called X", "starting with X",
// a quoted string, a glob, "readme files") and a single file the question
// is about ("report.pdf", "docs/a.txt"), as written.
func (p parsed) names() (pattern, target string) {
	// Regexps match orig case-insensitively: lower-casing can change byte
	// offsets, so indices into a lower-cased copy would not fit orig.
	orig := strings.Join(p.orig, " ")
	clean := func(s string) string {
		return strings.Trim(s, `"'“”‘’`+"`,;:!?()")
	}
	for _, w := range p.orig {
		lw := strings.ToLower(w)
		if strings.ContainsAny(w, "*?[") && !(strings.HasPrefix(lw, "*.") && isExt(lw[2:])) && len(w) > 1 && !arithRe.MatchString(w) {
			pattern = w
			break
		}
	}
	for _, q := range p.quoted { // a quoted name may hold spaces
		if quotedFileRe.MatchString(q) && !strings.ContainsAny(q, "*?[") && !strings.HasPrefix(q, ".") {
			target = q
			break
		}
	}
	for _, w := range p.orig {
		if target != "" {
			break
		}
		if fileishRe.MatchString(w) && !strings.HasPrefix(w, ".") && !strings.ContainsAny(w, "*?[") && !isAbbrev(w) || isPathLike(w) {
			target = w
		}
	}
	if pattern == "" {
		if m := startRe.FindStringSubmatchIndex(orig); m != nil {
			pattern = clean(orig[m[2]:m[3]]) + "*"
		} else if m := endRe.FindStringSubmatchIndex(orig); m != nil {
			if s := clean(orig[m[2]:m[3]]); !(strings.HasPrefix(s, ".") && isExt(strings.ToLower(s[1:]))) {
				pattern = "*" + s
			}
		} else if m := containRe.FindStringSubmatchIndex(orig); m != nil {
			pattern = clean(orig[m[2]:m[3]])
		}
	}
	for _, q := range p.quoted {
		lq := strings.ToLower(q)
		switch {
		case strings.HasPrefix(lq, "*.") && isExt(lq[2:]), strings.HasPrefix(lq, ".") && isExt(lq[1:]):
			continue // a type, found by types()
		case strings.ContainsAny(q, "*?["):
			if pattern == "" {
				pattern = q
			}
		case target == "" && (fileishRe.MatchString(q) || quotedFileRe.MatchString(q)):
			target = q
		case pattern == "":
			pattern = q
		}
	}
	if pattern == "" {
		if m := namedRe.FindStringSubmatchIndex(orig); m != nil {
			if w := clean(orig[m[2]:m[3]]); !nameStop[strings.ToLower(w)] {
				// "the name of which folder" gives no name.
				pattern = w
			}
		}
	}
	if pattern == "" && target != "" && !isPathLike(target) {
		pattern = target
	}
	if pattern == "" {
		// "readme files", "the password file": a word before "file(s)"
		// that is not a type or a describing word.
		for i := 1; i < len(p.low); i++ {
			if p.low[i] != "file" && p.low[i] != "files" {
				continue
			}
			w := p.low[i-1]
			if i >= 2 && (p.low[i-2] == "except" || p.low[i-2] == "excluding" || p.low[i-2] == "not" || p.low[i-2] == "without" || p.low[i-2] == "but") {
				continue // "except GIT files"
			}
			if nameStop[w] || knownExtensions[strings.TrimPrefix(w, ".")] || typeSynonyms[w] != nil || pluralTypes[w] ||
				strings.HasPrefix(w, "*") || strings.HasPrefix(w, ".") || strings.Contains(w, "/") || !isWord(w) {
				continue
			}
			pattern = text.TrimPlural(w)
			break
		}
	}
	if pattern == "" {
		// "where is my resume", "locate the invoices"
		if m := whereRe.FindStringSubmatchIndex(orig); m != nil {
			w := clean(orig[m[2]:m[3]])
			lw := strings.ToLower(w)
			if !nameStop[lw] && !knownExtensions[lw] && typeSynonyms[lw] == nil && !pluralTypes[lw] && isWord(lw) {
				pattern = text.TrimPlural(w)
			}
		}
	}
	if strings.HasPrefix(pattern, "*.") && isExt(strings.ToLower(pattern[2:])) {
		pattern = ""
	}
	return pattern, target
}

// isPathLike reports whether a word is a path someone typed: "/etc/x",
// "../x", "./x", "~/x", or one with a ".." component.
func isPathLike(w string) bool {
	return strings.HasPrefix(w, "/") && len(w) > 1 || strings.HasPrefix(w, "../") || strings.HasPrefix(w, "./") ||
		strings.HasPrefix(w, "~/") || hasDotDot(w) && strings.Contains(w, "/")
}

func isWord(s string) bool {
	if len(s) < 3 {
		return false
	}
	for _, r := range s {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' && r != '-' {
			return false
		}
	}
	return true
}

func isAbbrev(w string) bool {
	switch strings.ToLower(w) {
	case "e.g", "i.e", "etc", "vs", "a.m", "p.m":
		return true
	}
	// Numbers like "2.5" and versions like "v1.2" are not files.
	ext := w[strings.LastIndexByte(w, '.')+1:]
	return !isExt(strings.ToLower(ext))
}

var folderRe = regexp.MustCompile(`(?i)\b(?:in|under|inside|within|from|of)\s+(?:the\s+|my\s+|a\s+)?(\S+)\s+(?:folder|directory|dir|subfolder|subdirectory)\b`)

// folder finds "in the invoices folder", "under temps/"; "" when none (or
// a word like "current" or "home").
func (p parsed) folder() string {
	orig := strings.Join(p.orig, " ")
	if m := folderRe.FindStringSubmatchIndex(orig); m != nil {
		w := strings.Trim(orig[m[2]:m[3]], `"'“”`+"`")
		switch strings.ToLower(w) {
		case "current", "this", "that", "home", "root", "entire", "whole", "same", "working", "given", "parent", "specified", "each", "every", "any", "which", "one", "a", "an", "some", "another", "my", "the":
		default:
			return strings.TrimSuffix(w, "/")
		}
	}
	for _, w := range p.orig {
		if strings.HasSuffix(w, "/") && len(w) > 1 && !strings.HasPrefix(w, "/") {
			return strings.TrimSuffix(w, "/")
		}
	}
	return ""
}
