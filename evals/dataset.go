package evals

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/evals/datasets"
)

// Local is the coarse routing class of questions answered from the local
// store: vector and hybrid both search it. A RAG question used as a routing
// row carries it as its expected route.
const Local = "local"

// Label strengths of routing rows.
const (
	Hard = "hard" // the route is unambiguous
	Soft = "soft" // another route would be defensible
)

// BundledPrefix marks a path inside the embedded default data set, e.g.
// "bundled:routing.dev.jsonl" (see package evals/datasets).
const BundledPrefix = "bundled:"

// RoutingRow is one routing example.
type RoutingRow struct {
	ID    string
	Query string
	// Route is one of graphrag.Routes, or Local for a row whose answer is
	// known to be in the local store without saying which local route.
	Route string
	// Strength is Hard or Soft; rows without one are hard.
	Strength    string
	Source      string
	SourceLabel string
	At          Position
}

// Question is an answerable RAG question.
type Question struct {
	QID          string
	Question     string
	Answers      []string
	GoldPassages []string
	Type         string
	Source       string
	At           Position
}

// Negative is a question whose answer is not in the corpus: the right
// outcome is to abstain.
type Negative struct {
	QID              string
	Question         string
	ReferenceAnswers []string
	Source           string
	At               Position
}

// CorpusRow is one passage of a JSONL corpus.
type CorpusRow struct {
	ID     string
	Title  string
	Text   string
	Source string
	At     Position
}

// Position is where a row was read.
type Position struct {
	File string
	Line int
}

func (p Position) String() string { return fmt.Sprintf("%s:%d", p.File, p.Line) }

// RowError is a row that was skipped, with the reason.
type RowError struct {
	File   string `json:"file"`
	Line   int    `json:"line"`
	Reason string `json:"reason"`
}

func (e RowError) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Reason) }

// ErrDataset is wrapped by errors opening or reading a dataset file (not by
// bad rows, which are skipped and reported as RowError).
var ErrDataset = errors.New("dataset")

// Open opens a dataset file for reading: a path on disk, or
// BundledPrefix+name for a file of the embedded default set. A name ending
// in ".gz" is decompressed transparently.
func Open(path string) (io.ReadCloser, error) {
	var f io.ReadCloser
	var err error
	if name, ok := strings.CutPrefix(path, BundledPrefix); ok {
		f, err = datasets.FS.Open(name)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%w: open %s: no such bundled file (bundled files: %s): %w", ErrDataset, path, strings.Join(bundledNames(), ", "), err)
		}
	} else {
		f, err = os.Open(path)
	}
	if err != nil {
		return nil, fmt.Errorf("%w: open %s: %w", ErrDataset, path, err)
	}
	if !strings.HasSuffix(path, ".gz") {
		return f, nil
	}
	zr, err := gzip.NewReader(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%w: open %s: not a gzip file: %w", ErrDataset, path, err)
	}
	return gzipFile{zr, f}, nil
}

type gzipFile struct {
	*gzip.Reader
	f io.Closer
}

func (g gzipFile) Close() error {
	err := g.Reader.Close()
	if cerr := g.f.Close(); err == nil {
		err = cerr
	}
	return err
}

func bundledNames() []string {
	entries, _ := fs.ReadDir(datasets.FS, ".")
	var names []string
	for _, e := range entries {
		if strings.Contains(e.Name(), ".jsonl") {
			names = append(names, e.Name())
		}
	}
	return names
}

// maxLine bounds one JSONL row (a corpus row can be long).
const maxLine = 64 << 20

// eachLine calls fn with every non-blank line of r and its 1-based number.
// fn returns a skip reason, or "" when the row was taken.
func eachLine(name string, r io.Reader, fn func(line []byte, at Position) string) ([]RowError, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	var bad []RowError
	n := 0
	for sc.Scan() {
		n++
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		if reason := fn(line, Position{name, n}); reason != "" {
			bad = append(bad, RowError{File: name, Line: n, Reason: reason})
		}
	}
	if err := sc.Err(); err != nil {
		return bad, fmt.Errorf("%w: read %s after line %d: %w", ErrDataset, name, n, err)
	}
	return bad, nil
}

func decodeRow(line []byte, v any) string {
	if err := json.Unmarshal(line, v); err != nil {
		return "invalid JSON: " + err.Error()
	}
	return ""
}

type rawRouting struct {
	ID            string `json:"id"`
	Query         string `json:"query"`
	Route         string `json:"route"`
	LabelStrength string `json:"label_strength"`
	Source        string `json:"source"`
	SourceLabel   string `json:"source_label"`
}

// ReadRouting reads routing rows (`query`, `route`, optional
// `label_strength` hard|soft, `source`, `source_label`, `id`) from r; name
// is used in row errors. Rows without an id get "<name>:<line>".
func ReadRouting(name string, r io.Reader) ([]RoutingRow, []RowError, error) {
	var rows []RoutingRow
	seen := map[string]int{}
	bad, err := eachLine(name, r, func(line []byte, at Position) string {
		var raw rawRouting
		if reason := decodeRow(line, &raw); reason != "" {
			return reason
		}
		row := RoutingRow{ID: raw.ID, Query: strings.TrimSpace(raw.Query), Route: strings.ToLower(strings.TrimSpace(raw.Route)),
			Strength: strings.ToLower(strings.TrimSpace(raw.LabelStrength)), Source: raw.Source, SourceLabel: raw.SourceLabel, At: at}
		switch {
		case row.Query == "":
			return `missing "query"`
		case row.Route == "":
			return `missing "route"`
		case row.Route != Local && !graphrag.Route(row.Route).Valid():
			return fmt.Sprintf("unknown route %q (want one of vector, hybrid, web, filesystem, direct, local)", raw.Route)
		}
		switch row.Strength {
		case "":
			row.Strength = Hard
		case Hard, Soft:
		default:
			return fmt.Sprintf("unknown label_strength %q (want hard or soft)", raw.LabelStrength)
		}
		if row.ID == "" {
			row.ID = at.String()
		}
		if first, dup := seen[row.ID]; dup {
			return fmt.Sprintf("duplicate id %q (first on line %d)", row.ID, first)
		}
		seen[row.ID] = at.Line
		rows = append(rows, row)
		return ""
	})
	return rows, bad, err
}

type rawQuestion struct {
	QID          string   `json:"qid"`
	Question     string   `json:"question"`
	Answers      []string `json:"answers"`
	GoldPassages []string `json:"gold_passages"`
	Type         string   `json:"type"`
	Source       string   `json:"source"`
	Expected     string   `json:"expected"`
}

// ReadQuestions reads answerable RAG questions (`qid`, `question`,
// `answers[]`, `gold_passages[]`, `type`, `source`). A row without answers
// or gold passages, or one marked `expected: abstain`, is skipped.
func ReadQuestions(name string, r io.Reader) ([]Question, []RowError, error) {
	var qs []Question
	seen := map[string]int{}
	bad, err := eachLine(name, r, func(line []byte, at Position) string {
		var raw rawQuestion
		if reason := decodeRow(line, &raw); reason != "" {
			return reason
		}
		q := Question{QID: raw.QID, Question: strings.TrimSpace(raw.Question), Answers: nonEmpty(raw.Answers),
			GoldPassages: nonEmpty(raw.GoldPassages), Type: raw.Type, Source: raw.Source, At: at}
		switch {
		case raw.Expected == "abstain":
			return "row expects abstention: put it in the negatives file"
		case q.QID == "":
			return `missing "qid"`
		case q.Question == "":
			return `missing "question"`
		case len(q.Answers) == 0:
			return `no "answers"`
		case len(q.GoldPassages) == 0:
			return `no "gold_passages"`
		}
		if q.Type == "" {
			q.Type = "untyped"
		}
		if first, dup := seen[q.QID]; dup {
			return fmt.Sprintf("duplicate qid %q (first on line %d)", q.QID, first)
		}
		seen[q.QID] = at.Line
		qs = append(qs, q)
		return ""
	})
	return qs, bad, err
}

type rawNegative struct {
	QID              string   `json:"qid"`
	Question         string   `json:"question"`
	Expected         string   `json:"expected"`
	ReferenceAnswers []string `json:"reference_answers"`
	Source           string   `json:"source"`
}

// ReadNegatives reads unanswerable questions (`qid`, `question`,
// `expected: "abstain"`, optional `reference_answers[]`, `source`).
func ReadNegatives(name string, r io.Reader) ([]Negative, []RowError, error) {
	var ns []Negative
	seen := map[string]int{}
	bad, err := eachLine(name, r, func(line []byte, at Position) string {
		var raw rawNegative
		if reason := decodeRow(line, &raw); reason != "" {
			return reason
		}
		n := Negative{QID: raw.QID, Question: strings.TrimSpace(raw.Question), ReferenceAnswers: nonEmpty(raw.ReferenceAnswers), Source: raw.Source, At: at}
		switch {
		case n.QID == "":
			return `missing "qid"`
		case n.Question == "":
			return `missing "question"`
		case raw.Expected != "abstain":
			return fmt.Sprintf(`"expected" is %q, want "abstain"`, raw.Expected)
		}
		if first, dup := seen[n.QID]; dup {
			return fmt.Sprintf("duplicate qid %q (first on line %d)", n.QID, first)
		}
		seen[n.QID] = at.Line
		ns = append(ns, n)
		return ""
	})
	return ns, bad, err
}

type rawCorpus struct {
	ID     string `json:"id"`
	Title  string `json:"title"`
	Text   string `json:"text"`
	Source string `json:"source"`
}

// ReadCorpus reads corpus rows (`id`, `title`, `text`, `source`).
func ReadCorpus(name string, r io.Reader) ([]CorpusRow, []RowError, error) {
	var rows []CorpusRow
	seen := map[string]int{}
	bad, err := eachLine(name, r, func(line []byte, at Position) string {
		var raw rawCorpus
		if reason := decodeRow(line, &raw); reason != "" {
			return reason
		}
		row := CorpusRow{ID: strings.TrimSpace(raw.ID), Title: raw.Title, Text: raw.Text, Source: raw.Source, At: at}
		switch {
		case row.ID == "":
			return `missing "id"`
		case strings.TrimSpace(row.Text) == "":
			return `missing "text"`
		}
		if first, dup := seen[row.ID]; dup {
			return fmt.Sprintf("duplicate id %q (first on line %d)", row.ID, first)
		}
		seen[row.ID] = at.Line
		rows = append(rows, row)
		return ""
	})
	return rows, bad, err
}

func nonEmpty(xs []string) []string {
	var out []string
	for _, x := range xs {
		if x = strings.TrimSpace(x); x != "" {
			out = append(out, x)
		}
	}
	return out
}

// readerFunc is the shape of every Read* function.
type readerFunc[T any] func(name string, r io.Reader) ([]T, []RowError, error)

// load reads every path with read, concatenating rows and row errors.
func load[T any](read readerFunc[T], paths ...string) ([]T, []RowError, error) {
	var all []T
	var bad []RowError
	for _, p := range paths {
		f, err := Open(p)
		if err != nil {
			return nil, bad, err
		}
		rows, b, err := read(p, f)
		f.Close()
		bad = append(bad, b...)
		if err != nil {
			return nil, bad, err
		}
		all = append(all, rows...)
	}
	return all, bad, nil
}

// LoadRouting reads routing rows from every path (see Open).
func LoadRouting(paths ...string) ([]RoutingRow, []RowError, error) {
	return load(ReadRouting, paths...)
}

// LoadQuestions reads RAG questions from every path (see Open).
func LoadQuestions(paths ...string) ([]Question, []RowError, error) {
	return load(ReadQuestions, paths...)
}

// LoadNegatives reads negative questions from every path (see Open).
func LoadNegatives(paths ...string) ([]Negative, []RowError, error) {
	return load(ReadNegatives, paths...)
}

// LoadCorpus reads corpus rows from every path (see Open).
func LoadCorpus(paths ...string) ([]CorpusRow, []RowError, error) {
	return load(ReadCorpus, paths...)
}

// QuestionsAsRouting turns RAG questions into routing rows whose expected
// route is Local (hard: their answers are in the corpus).
func QuestionsAsRouting(qs []Question) []RoutingRow {
	rows := make([]RoutingRow, len(qs))
	for i, q := range qs {
		rows[i] = RoutingRow{ID: q.QID, Query: q.Question, Route: Local, Strength: Hard, Source: q.Source, SourceLabel: q.Type, At: q.At}
	}
	return rows
}

// The bundled default data set (package evals/datasets), as paths for Open.
var (
	// BundledRouting are the routing rows: the dev rows and graphrag's own.
	BundledRouting = []string{BundledPrefix + datasets.RoutingDev, BundledPrefix + datasets.RoutingExtra}
	// BundledQuestions are the answerable dev questions.
	BundledQuestions = []string{BundledPrefix + datasets.Questions}
	// BundledNegatives are the unanswerable dev questions.
	BundledNegatives = []string{BundledPrefix + datasets.Negatives}
	// BundledCorpus is the passages the questions are about.
	BundledCorpus = []string{BundledPrefix + datasets.Corpus}
	// BundledRoutingCorpus adds the small personal-files corpus the local
	// rows of routing.extra.jsonl are about.
	BundledRoutingCorpus = []string{BundledPrefix + datasets.Corpus, BundledPrefix + datasets.CorpusExtra}
)
