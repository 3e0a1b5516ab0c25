package fstools

import (
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/graphrag/graphrag"
)

// Filter narrows what a tool sees. The zero value keeps every file.
type Filter struct {
	// Types are file types: lower-case extensions without a dot ("pdf"), or
	// synonyms ("pdfs", "images", "documents", "spreadsheets", "code", ...)
	// that stand for a set of extensions. Empty means any type.
	Types []string
	// Window keeps files modified in today / this week / this month, on the
	// tools' clock.
	Window graphrag.TimeWindow
	// Since and Until bound the modified time, [Since, Until); zero is open.
	// They combine with Window (both must hold).
	Since, Until time.Time
	// MinSize and MaxSize bound the size in bytes, inclusive; MaxSize 0 is
	// open. A negative MaxSize keeps only empty files.
	MinSize, MaxSize int64
	// Name keeps files whose name matches: a glob ("*.txt", "report-??.pdf")
	// when it has glob characters, else a substring; case-insensitive.
	// A pattern with a "/" is matched against the path relative to the root.
	Name string
	// Source keeps files whose path relative to the root contains it
	// (case-insensitive), like graphrag.Filters.Source.
	Source string
}

// typeSynonyms maps words people use for kinds of files to extensions.
var typeSynonyms = map[string][]string{
	"image":        {"jpg", "jpeg", "png", "gif", "webp", "bmp", "tif", "tiff", "heic", "svg"},
	"photo":        {"jpg", "jpeg", "png", "heic", "webp", "tif", "tiff"},
	"picture":      {"jpg", "jpeg", "png", "gif", "webp", "bmp", "tif", "tiff", "heic"},
	"pic":          {"jpg", "jpeg", "png", "gif", "webp", "bmp", "tif", "tiff", "heic"},
	"document":     {"pdf", "doc", "docx", "odt", "rtf", "txt", "md", "pages"},
	"docs":         {"pdf", "doc", "docx", "odt", "rtf", "txt", "md", "pages"},
	"text":         {"txt", "md", "rst", "text"},
	"note":         {"md", "txt", "org"},
	"markdown":     {"md", "markdown"},
	"spreadsheet":  {"xls", "xlsx", "ods", "csv", "tsv", "numbers"},
	"sheet":        {"xls", "xlsx", "ods", "csv", "tsv", "numbers"},
	"presentation": {"ppt", "pptx", "odp", "key"},
	"slide":        {"ppt", "pptx", "odp", "key"},
	"code":         {"go", "py", "js", "ts", "tsx", "jsx", "java", "c", "h", "cc", "cpp", "hpp", "rs", "rb", "php", "cs", "swift", "kt", "scala", "sh", "bash", "sql", "lua", "r", "m", "pl"},
	"source":       {"go", "py", "js", "ts", "tsx", "jsx", "java", "c", "h", "cc", "cpp", "hpp", "rs", "rb", "php", "cs", "swift", "kt", "scala", "sh", "bash", "sql", "lua", "r", "m", "pl"},
	"script":       {"sh", "bash", "py", "js", "pl", "rb", "ps1"},
	"audio":        {"mp3", "wav", "flac", "ogg", "m4a", "aac", "opus"},
	"music":        {"mp3", "wav", "flac", "ogg", "m4a", "aac", "opus"},
	"song":         {"mp3", "wav", "flac", "ogg", "m4a", "aac", "opus"},
	"video":        {"mp4", "mkv", "mov", "avi", "webm", "m4v", "wmv"},
	"movie":        {"mp4", "mkv", "mov", "avi", "webm", "m4v", "wmv"},
	"archive":      {"zip", "tar", "gz", "tgz", "bz2", "xz", "7z", "rar", "zst"},
	"ebook":        {"epub", "mobi", "azw3", "pdf"},
	"webpage":      {"html", "htm"},
	"config":       {"yaml", "yml", "toml", "ini", "conf", "cfg", "json"},
	"data":         {"json", "jsonl", "csv", "tsv", "xml", "parquet"},
	"email":        {"eml", "msg", "mbox"},
	"log":          {"log"},
	"word":         {"doc", "docx"},
	"excel":        {"xls", "xlsx"},
	"powerpoint":   {"ppt", "pptx"},
	"jpeg":         {"jpg", "jpeg"},
	"jpg":          {"jpg", "jpeg"},
	"tif":          {"tif", "tiff"},
	"tiff":         {"tif", "tiff"},
	"htm":          {"htm", "html"},
	"html":         {"htm", "html"},
	"yml":          {"yml", "yaml"},
	"yaml":         {"yml", "yaml"},
	"markdowns":    {"md", "markdown"},
}

// knownExtensions are extensions a bare word in a question is taken to mean
// ("the mp3 files"); any type given in a Filter is accepted as is.
var knownExtensions = func() map[string]bool {
	m := map[string]bool{}
	for _, exts := range typeSynonyms {
		for _, e := range exts {
			m[e] = true
		}
	}
	for _, e := range strings.Fields("pdf txt md csv json jsonl xml html epub rtf odt docx xlsx pptx " +
		"go py js ts java rs rb php swift kt c cpp h sql sh ipynb " +
		"jpg png gif webp bmp tiff heic svg mp3 mp4 wav flac mkv mov avi zip tar gz 7z rar iso dmg " +
		"bam sam vcf fasta ics vcf eml log bak tmp dat db sqlite") {
		m[e] = true
	}
	return m
}()

// ExpandTypes normalises file types: lower case, no leading "*." or ".",
// synonyms and plurals ("pdfs", "images") expanded to extensions, sorted and
// without duplicates.
func ExpandTypes(types []string) []string {
	set := map[string]bool{}
	for _, t := range types {
		for _, e := range expandType(t) {
			set[e] = true
		}
	}
	out := make([]string, 0, len(set))
	for e := range set {
		out = append(out, e)
	}
	sort.Strings(out)
	return out
}

func expandType(t string) []string {
	t = strings.ToLower(strings.TrimSpace(t))
	t = strings.TrimPrefix(t, "*")
	t = strings.TrimPrefix(t, ".")
	if t == "" {
		return nil
	}
	if exts, ok := typeSynonyms[t]; ok {
		return exts
	}
	for _, suffix := range []string{"s", "es"} {
		stem, ok := strings.CutSuffix(t, suffix)
		if !ok || stem == "" {
			continue
		}
		if exts, ok := typeSynonyms[stem]; ok {
			return exts
		}
		if knownExtensions[stem] && !knownExtensions[t] {
			return []string{stem}
		}
	}
	return []string{t}
}

// FileType is the type graphrag gives a file: its lower-case extension
// without the dot, "" when it has none (a dot file like ".bashrc" has none).
func FileType(name string) string {
	base := path.Base(strings.ReplaceAll(name, "\\", "/"))
	i := strings.LastIndexByte(base, '.')
	if i <= 0 || i == len(base)-1 {
		return ""
	}
	return strings.ToLower(base[i+1:])
}

// matcher is a compiled Filter.
type matcher struct {
	types        map[string]bool
	typeWords    []string
	since, until time.Time
	minSize      int64
	maxSize      int64
	name         string
	glob         bool
	namePath     bool
	source       string
}

func (t *Tools) compile(f Filter) (*matcher, error) {
	m := &matcher{minSize: f.MinSize, maxSize: f.MaxSize, source: strings.ToLower(f.Source)}
	for _, w := range f.Types {
		if w = strings.TrimLeft(strings.ToLower(strings.TrimSpace(w)), "*."); w != "" && !slices.Contains(m.typeWords, w) {
			m.typeWords = append(m.typeWords, w)
		}
	}
	if exts := ExpandTypes(f.Types); len(exts) > 0 {
		m.types = map[string]bool{}
		for _, e := range exts {
			m.types[e] = true
		}
	}
	if f.Window != graphrag.TimeAny {
		switch f.Window {
		case graphrag.TimeToday, graphrag.TimeThisWeek, graphrag.TimeThisMonth:
		default:
			return nil, fmt.Errorf("fstools: time window %q: %w: use today, this_week or this_month", f.Window, errInvalid)
		}
		m.since, m.until = f.Window.Range(t.opts.Now())
	}
	if !f.Since.IsZero() && (m.since.IsZero() || f.Since.After(m.since)) {
		m.since = f.Since
	}
	if !f.Until.IsZero() && (m.until.IsZero() || f.Until.Before(m.until)) {
		m.until = f.Until
	}
	if f.Name != "" {
		m.name = strings.ToLower(f.Name)
		m.namePath = strings.Contains(m.name, "/")
		m.glob = strings.ContainsAny(m.name, "*?[")
		if m.glob {
			if _, err := path.Match(m.name, ""); err != nil {
				return nil, fmt.Errorf("fstools: name pattern %q: %w: %v", f.Name, errInvalid, err)
			}
		}
	}
	return m, nil
}

// matchName reports whether a file's name (or slash path relative to its
// root, for patterns with a "/") matches the name pattern.
func (m *matcher) matchName(name, rel string) bool {
	if m.name == "" {
		return true
	}
	s := strings.ToLower(name)
	if m.namePath {
		s = strings.ToLower(rel)
	}
	if m.glob {
		ok, _ := path.Match(m.name, s)
		return ok
	}
	return strings.Contains(s, m.name)
}

// matchPath checks the conditions that need only the name and path: type,
// name pattern, source.
func (m *matcher) matchPath(name, rel string) bool {
	if m.types != nil && !m.types[FileType(name)] {
		return false
	}
	if m.source != "" && !strings.Contains(strings.ToLower(rel), m.source) {
		return false
	}
	return m.matchName(name, rel)
}

// match reports whether a regular file passes the filter.
func (m *matcher) match(f File) bool {
	if m.types != nil && !m.types[f.Type] {
		return false
	}
	if !m.since.IsZero() && f.ModTime.Before(m.since) {
		return false
	}
	if !m.until.IsZero() && !f.ModTime.Before(m.until) {
		return false
	}
	if f.Size < m.minSize {
		return false
	}
	if m.maxSize < 0 && f.Size != 0 || m.maxSize > 0 && f.Size > m.maxSize {
		return false
	}
	if m.source != "" && !strings.Contains(strings.ToLower(f.Rel), m.source) {
		return false
	}
	return m.matchName(f.Name, f.Rel)
}

// describe says in words what the filter keeps, for answers and errors.
func (m *matcher) describe() string {
	var parts []string
	if len(m.types) > 0 {
		parts = append(parts, "of type "+strings.Join(m.typeWords, ", "))
	}
	if m.name != "" {
		if m.glob {
			parts = append(parts, fmt.Sprintf("matching %q", m.name))
		} else {
			parts = append(parts, fmt.Sprintf("with %q in the name", m.name))
		}
	}
	if m.source != "" {
		parts = append(parts, fmt.Sprintf("under paths containing %q", m.source))
	}
	const layout = "2006-01-02 15:04"
	switch {
	case !m.since.IsZero() && !m.until.IsZero():
		parts = append(parts, "modified between "+m.since.Format(layout)+" and "+m.until.Format(layout))
	case !m.since.IsZero():
		parts = append(parts, "modified since "+m.since.Format(layout))
	case !m.until.IsZero():
		parts = append(parts, "modified before "+m.until.Format(layout))
	}
	switch {
	case m.maxSize < 0:
		parts = append(parts, "that are empty")
	case m.minSize > 0 && m.maxSize > 0:
		parts = append(parts, "between "+HumanSize(m.minSize)+" and "+HumanSize(m.maxSize))
	case m.minSize > 0:
		parts = append(parts, "of at least "+HumanSize(m.minSize))
	case m.maxSize > 0:
		parts = append(parts, "of at most "+HumanSize(m.maxSize))
	}
	return strings.Join(parts, ", ")
}
