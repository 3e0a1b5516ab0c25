package evals

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/evals/datasets"
	"github.com/graphrag/graphrag/nodes"
)

// The real-documents benchmark asks questions a user would ask about
// document collections installed on the machine (Go's source tree and
// documentation, PostgreSQL's manual pages, Debian's /usr/share/doc), with
// the machine's own files as the corpus. Its questions were written before
// any tuning, and are never edited to fit the output.

// Collection is one document collection of the benchmark: a root
// directory and the subtrees or file patterns under it that are ingested.
type Collection struct {
	Name string `json:"name"`
	// Root may name an environment variable ("$GOROOT"); the caller
	// resolves it (see ResolveCollections).
	Root string `json:"root"`
	// Include are paths or glob patterns relative to Root
	// ("src/strings", "man1/pg_*.1.gz", "*/copyright").
	Include []string `json:"include"`
}

// DocsQuestion is one row of the benchmark: an answerable question with the
// file that answers it (relative to its collection's root) and a string the
// answer must contain, or an unanswerable one (Abstain).
type DocsQuestion struct {
	ID         string `json:"id"`
	Collection string `json:"collection"`
	Question   string `json:"question"`
	GoldFile   string `json:"gold_file,omitempty"`
	Gold       string `json:"gold,omitempty"`
	Abstain    bool   `json:"abstain,omitempty"`
}

// DocsConfig configures RunDocs.
type DocsConfig struct {
	Collections []Collection
	Questions   []DocsQuestion
	// Open opens a fresh store; Ingest writes the collections' files into
	// it (cmd/graphrag passes the ingest package).
	Open   OpenStore
	Ingest IngestFunc
	// Searcher, when set, is an already built store: Open and Ingest are
	// not used.
	Searcher    nodes.Searcher
	Deps        nodes.Deps
	Options     *nodes.Options
	Concurrency int
	Progress    ProgressFunc
	// States, when set, is a directory RunDocs writes each question's
	// final graph state to, as JSON beside its row (StatesFile): what the
	// nodes kept and measured, to study a miss or to train on.
	States string
}

// DocsState is one file of DocsConfig.States: a question's row and the
// state its run ended in.
type DocsState struct {
	Question DocsQuestion `json:"question"`
	// Root is the question's collection root, which gold_file is under.
	Root  string      `json:"root"`
	State nodes.State `json:"state"`
}

// StatesFile is the file RunDocs writes a question's DocsState to in
// DocsConfig.States.
func StatesFile(dir, id string) string { return filepath.Join(dir, id+".json") }

// DocsResult is the outcome of one question.
type DocsResult struct {
	ID         string `json:"id"`
	Collection string `json:"collection"`
	Question   string `json:"question"`
	Abstain    bool   `json:"expect_abstain,omitempty"`
	Abstained  bool   `json:"abstained"`
	GoldFound  bool   `json:"gold_string"`
	GoldCited  bool   `json:"gold_file_cited"`
	GoldInHits bool   `json:"gold_file_in_hits"`
	// PassageInHits and PassageKept are set when a passage of the gold
	// file holding the gold string was among the hits, and among the hits
	// evaluate kept to answer from: they split a miss into retrieval
	// (the answering passage never found), keeping (found, then dropped)
	// and answering (kept, another part quoted).
	PassageInHits bool `json:"gold_passage_in_hits"`
	PassageKept   bool `json:"gold_passage_kept"`
	// Words is the length of the answer in words (0 when it abstained).
	Words int `json:"words"`
	// CopyCited is set on an answer with the gold string that cites,
	// instead of the gold file, a file with the same bytes (Debian ships
	// one copyright file or changelog in several packages'
	// directories) without naming the gold file among the citation's
	// copies (graphrag.Hit.Copies: then the gold file is cited). It is not
	// counted as correct; the figures report it apart (AnsweredWithCopies).
	CopyCited bool `json:"gold_copy_cited,omitempty"`
	// CitedAsCopy is set on a correct answer that cites the gold file only
	// as a copy of a cited passage's text (graphrag.Hit.Copies), not as
	// the file a citation names first: the figures report how many
	// (AnsweredFirstNamed).
	CitedAsCopy bool     `json:"gold_cited_as_copy,omitempty"`
	Correct     bool     `json:"correct"`
	Answer      string   `json:"answer"`
	Cited       []string `json:"cited,omitempty"`
	// Route is the run's last route, Retrieval evaluate's last judgement
	// of the hits (good, poor, empty) and Measured what it measured to
	// judge so ("evidence 0.52 (…), kept 5 of 10, missing …"): why a
	// question was abstained on, or answered from weak hits, without
	// running it again with --trace.
	Route     string  `json:"route,omitempty"`
	Retrieval string  `json:"retrieval,omitempty"`
	Measured  string  `json:"measured,omitempty"`
	MS        float64 `json:"ms"`
	Err       string  `json:"error,omitempty"`
}

// The stages a missed answerable question is lost at (DocsResult.LostAt),
// in the order of the path one question takes: the first that failed it.
const (
	LostAbstained = "abstained"
	LostFile      = "gold file not retrieved"
	LostPassage   = "gold passage not retrieved"
	LostKept      = "gold passage not kept"
	LostQuoted    = "another part quoted"
	LostCited     = "gold file not cited"
)

// LossStages are the stages of DocsResult.LostAt, in the path's order.
var LossStages = []string{LostAbstained, LostFile, LostPassage, LostKept, LostQuoted, LostCited}

// LostAt is the stage at which an answerable question was missed: it
// abstained; or its gold file, or the passage of it holding the gold
// string, was not among the hits; or that passage was not kept to answer
// from; or another part of what was kept was quoted; or the answer holds
// the gold string without citing the gold file. "" for a question
// answered, or one to abstain on.
func (r DocsResult) LostAt() string {
	switch {
	case r.Abstain || r.Correct:
		return ""
	case r.Abstained:
		return LostAbstained
	case !r.GoldInHits:
		return LostFile
	case !r.PassageInHits:
		return LostPassage
	case !r.PassageKept:
		return LostKept
	case !r.GoldFound:
		return LostQuoted
	}
	return LostCited
}

// DocsFigures are the benchmark's figures for one collection (or all).
type DocsFigures struct {
	Collection string `json:"collection"`
	Answerable int    `json:"answerable"`
	// Answered is the share of answerable questions answered with the gold
	// string and the gold file cited.
	Answered float64 `json:"answered"`
	// Retrieved is the share whose gold file was among the hits: how much
	// of a miss is retrieval's.
	Retrieved float64 `json:"retrieved"`
	// PassageRetrieved and PassageKept are the shares whose answering
	// passage (of the gold file, holding the gold string) was among the
	// hits, and among the kept hits.
	PassageRetrieved float64 `json:"passage_retrieved"`
	PassageKept      float64 `json:"passage_kept"`
	// MedianWords is the median length in words of the answers given to
	// answerable questions (abstentions left out): a longer answer holds
	// the gold string more often, so the figure keeps that honest.
	MedianWords int `json:"median_words"`
	// AnsweredWithCopies is Answered with the answers that cite a
	// byte-identical copy of the gold file (DocsResult.CopyCited) counted
	// as correct: how much of the gap is which of two equal files is cited.
	AnsweredWithCopies float64 `json:"answered_with_copies"`
	// AnsweredFirstNamed is Answered without the answers that name the
	// gold file only as a copy of a cited passage's text
	// (DocsResult.CitedAsCopy).
	AnsweredFirstNamed float64 `json:"answered_first_named"`
	Unanswerable       int     `json:"unanswerable"`
	Abstained          float64 `json:"abstained"`
	FalseAbstains      float64 `json:"false_abstains"`
	// Lost counts the missed answerable questions by the stage they were
	// lost at (DocsResult.LostAt).
	Lost map[string]int `json:"lost,omitempty"`
}

// DocsReport is what RunDocs returns.
type DocsReport struct {
	Figures []DocsFigures `json:"figures"` // per collection, then "all"
	Results []DocsResult  `json:"results"`
	P50MS   float64       `json:"p50_ms"`
	P95MS   float64       `json:"p95_ms"`
	Paths   int           `json:"paths"`
	// NotInstalled are the answerable questions left out because their
	// gold file is not installed here (see askable), by id.
	NotInstalled []string `json:"not_installed,omitempty"`
	// SinceBaseline is how the results differ from a baseline report's,
	// when one was given (graphrag eval docs --baseline).
	SinceBaseline *DocsDiff `json:"since_baseline,omitempty"`
}

// The bundled question sets of the benchmark. "dev", "heldout" (other
// packages, pages and files of the same collections), "test" and "test2"
// (others again, each written before a round of answer work) have all been
// tuned on. "test3" (others again, written from the documents alone after
// "test2" had been run) was sealed in round 6, round 7's validation split,
// and is tuned on since round 8. "test4" (others again, written the same
// way before round 7) is sealed: run only at the end of a round, its figure
// reported, its misses never read to fix them. "test5" (others again,
// written the same way before round 8) was round 8's validation split and
// is tuned on since round 9. "test6" (others again, written the same way
// before round 9) was round 9's validation split and is tuned on since
// round 10. "test7" (others again, written the same way at the end of round
// 9) was round 10's validation split and is tuned on since round 11.
// "test8" (other files again, written the same way at the start of round
// 11) was round 11's validation split and is tuned on since round 12.
// "test9" (other files again, written the same way at the start of round
// 12) was round 12's validation split and is tuned on since round 13.
// "test10" (other files again, written the same way at the start of round
// 13) was round 13's validation split and is tuned on since round 14.
// "test11" (other files again, written the same way at the start of round
// 14) was round 14's validation split and is tuned on since round 15.
// "test12" (other files again, written the same way at the start of round
// 15) was round 15's validation split and is tuned on since round 16.
// "test13" (other files again, written the same way at the start of round
// 16) was round 16's validation split and is tuned on since round 17.
// "test14" (other files again, written the same way at the start of round
// 17) was round 17's validation split and is tuned on since round 18.
// "test15" (other files again, written the same way at the start of round
// 18) was round 18's validation split and is tuned on since round 19.
// "test16" (other files again, written the same way at the start of round
// 19) was round 19's validation split and is tuned on since round 20.
// "test17" (other files again, written the same way at the start of round
// 20) was round 20's validation split and is tuned on since round 21.
// "test18" (other files again, written the same way at the start of round
// 21) was round 21's validation split and is tuned on since round 22.
// "test19" (written the same way at the start of round 22; most of its
// Debian rows on files no set asked about in packages earlier sets did)
// was round 22's validation split and is tuned on since round 23.
// "test20" (written the same way at the start of round 23, its Debian
// rows on files no set asked about, one per package) was round 23's
// validation split and is tuned on since round 24.
// "test21" (written the same way at the start of round 24) was round
// 24's validation split and is tuned on since round 25.
// "test22" (written the same way at the start of round 25) was round
// 25's validation split and is tuned on since round 26.
// "test23" (written the same way at the start of round 26) was round 26's
// validation split and is tuned on since round 27.
// "test24" (written the same way at the start of round 27) was round 27's
// validation split and is tuned on since round 28.
// "test25" (written the same way at the start of round 28) was round 28's
// validation split and is tuned on since round 29.
// "test26" (written the same way at the start of round 29) was round 29's
// validation split and is tuned on since round 30.
// "test27" (written the same way at the start of round 30) was round 30's
// validation split and is tuned on since round 31.
// "test28" (written the same way at the start of round 31) was round 31's
// validation split and is tuned on since round 32.
// "test29" (written the same way at the start of round 32) was round 32's
// validation split and is tuned on since round 33.
// "test30" (written the same way at the start of round 33) was round 33's
// validation split and is tuned on since round 34.
// "test31" (written the same way at the start of round 34) was round 34's
// validation split and is tuned on since round 35.
// "test32" (written the same way at the start of round 35) was round 35's
// validation split and is tuned on since round 36.
// "test33" (written the same way at the start of round 36) was round 36's
// validation split and is tuned on since round 37.
// "test34" (written the same way at the start of round 37) was round 37's
// validation split and is tuned on since round 38.
// "test35" (written the same way at the start of round 38) was round 38's
// validation split and is tuned on since round 39.
// "test36" (written the same way at the start of round 39) was round 39's
// validation split and is tuned on since round 40.
// "test37" (written the same way at the start of round 40) was round 40's
// validation split and is tuned on since round 41.
// "test38" (written the same way at the start of round 41) was round 41's
// validation split and is tuned on since round 42.
// "test39" (written the same way at the start of round 42) was round 42's
// validation split and is tuned on since round 43.
// "test40" (written the same way at the start of round 43) was round 43's
// validation split and is tuned on since round 44.
// "test41" (written the same way at the start of round 44) was round 44's
// validation split and is tuned on since round 45.
// "test42" (written the same way at the start of round 45) was round 45's
// validation split and is tuned on since round 46.
// "test43" (written the same way at the start of round 46) was round 46's
// validation split and is tuned on since round 47.
// "test44" (written the same way at the start of round 47) was round 47's
// validation split and is tuned on since round 48.
// "test45" (written the same way at the start of round 48) was round 48's
// validation split and is tuned on since round 49.
// "test46" (written the same way at the start of round 49) was round 49's
// validation split and is tuned on since round 50.
// "test47" (written the same way at the start of round 50) was round 50's
// validation split and is tuned on since round 51.
// "test48" (written the same way at the start of round 51) is the
// validation split: only its figure is read.
// "tune1" to "tune3" (others again, written from the documents alone by
// three writers at once, each over its own part of the collections) are
// development data: their misses are read.
var docsSets = map[string]struct{ collections, questions string }{
	"dev":     {datasets.DocsCollections, datasets.DocsQuestions},
	"heldout": {datasets.DocsHeldoutCollections, datasets.DocsHeldoutQuestions},
	"test":    {datasets.DocsTestCollections, datasets.DocsTestQuestions},
	"test2":   {datasets.DocsTest2Collections, datasets.DocsTest2Questions},
	"test3":   {datasets.DocsTest3Collections, datasets.DocsTest3Questions},
	"test4":   {datasets.DocsTest4Collections, datasets.DocsTest4Questions},
	"test5":   {datasets.DocsTest5Collections, datasets.DocsTest5Questions},
	"test6":   {datasets.DocsTest6Collections, datasets.DocsTest6Questions},
	"test7":   {datasets.DocsTest7Collections, datasets.DocsTest7Questions},
	"test8":   {datasets.DocsTest8Collections, datasets.DocsTest8Questions},
	"test9":   {datasets.DocsTest9Collections, datasets.DocsTest9Questions},
	"test10":  {datasets.DocsTest10Collections, datasets.DocsTest10Questions},
	"test11":  {datasets.DocsTest11Collections, datasets.DocsTest11Questions},
	"test12":  {datasets.DocsTest12Collections, datasets.DocsTest12Questions},
	"test13":  {datasets.DocsTest13Collections, datasets.DocsTest13Questions},
	"test14":  {datasets.DocsTest14Collections, datasets.DocsTest14Questions},
	"test15":  {datasets.DocsTest15Collections, datasets.DocsTest15Questions},
	"test16":  {datasets.DocsTest16Collections, datasets.DocsTest16Questions},
	"test17":  {datasets.DocsTest17Collections, datasets.DocsTest17Questions},
	"test18":  {datasets.DocsTest18Collections, datasets.DocsTest18Questions},
	"test19":  {datasets.DocsTest19Collections, datasets.DocsTest19Questions},
	"test20":  {datasets.DocsTest20Collections, datasets.DocsTest20Questions},
	"test21":  {datasets.DocsTest21Collections, datasets.DocsTest21Questions},
	"test22":  {datasets.DocsTest22Collections, datasets.DocsTest22Questions},
	"test23":  {datasets.DocsTest23Collections, datasets.DocsTest23Questions},
	"test24":  {datasets.DocsTest24Collections, datasets.DocsTest24Questions},
	"test25":  {datasets.DocsTest25Collections, datasets.DocsTest25Questions},
	"test26":  {datasets.DocsTest26Collections, datasets.DocsTest26Questions},
	"test27":  {datasets.DocsTest27Collections, datasets.DocsTest27Questions},
	"test28":  {datasets.DocsTest28Collections, datasets.DocsTest28Questions},
	"test29":  {datasets.DocsTest29Collections, datasets.DocsTest29Questions},
	"test30":  {datasets.DocsTest30Collections, datasets.DocsTest30Questions},
	"test31":  {datasets.DocsTest31Collections, datasets.DocsTest31Questions},
	"test32":  {datasets.DocsTest32Collections, datasets.DocsTest32Questions},
	"test33":  {datasets.DocsTest33Collections, datasets.DocsTest33Questions},
	"test34":  {datasets.DocsTest34Collections, datasets.DocsTest34Questions},
	"test35":  {datasets.DocsTest35Collections, datasets.DocsTest35Questions},
	"test36":  {datasets.DocsTest36Collections, datasets.DocsTest36Questions},
	"test37":  {datasets.DocsTest37Collections, datasets.DocsTest37Questions},
	"test38":  {datasets.DocsTest38Collections, datasets.DocsTest38Questions},
	"test39":  {datasets.DocsTest39Collections, datasets.DocsTest39Questions},
	"test40":  {datasets.DocsTest40Collections, datasets.DocsTest40Questions},
	"test41":  {datasets.DocsTest41Collections, datasets.DocsTest41Questions},
	"test42":  {datasets.DocsTest42Collections, datasets.DocsTest42Questions},
	"test43":  {datasets.DocsTest43Collections, datasets.DocsTest43Questions},
	"test44":  {datasets.DocsTest44Collections, datasets.DocsTest44Questions},
	"test45":  {datasets.DocsTest45Collections, datasets.DocsTest45Questions},
	"test46":  {datasets.DocsTest46Collections, datasets.DocsTest46Questions},
	"test47":  {datasets.DocsTest47Collections, datasets.DocsTest47Questions},
	"test48":  {datasets.DocsTest48Collections, datasets.DocsTest48Questions},
	"tune1":   {datasets.DocsTune1Collections, datasets.DocsTune1Questions},
	"tune2":   {datasets.DocsTune2Collections, datasets.DocsTune2Questions},
	"tune3":   {datasets.DocsTune3Collections, datasets.DocsTune3Questions},
}

// DocsSets are the names LoadDocsSet takes, sorted.
func DocsSets() []string {
	names := make([]string, 0, len(docsSets))
	for n := range docsSets {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// LoadDocsBenchmark reads the bundled dev set: its collections and
// questions.
func LoadDocsBenchmark() ([]Collection, []DocsQuestion, error) {
	return LoadDocsSet("dev")
}

// LoadDocsSet reads one bundled set (one of DocsSets): its collections
// and questions.
func LoadDocsSet(name string) ([]Collection, []DocsQuestion, error) {
	set, ok := docsSets[name]
	if !ok {
		return nil, nil, fmt.Errorf("docs benchmark: no set %q (have %s)", name, strings.Join(DocsSets(), ", "))
	}
	var cols []Collection
	data, err := datasets.FS.ReadFile(set.collections)
	if err != nil {
		return nil, nil, fmt.Errorf("docs benchmark: %w", err)
	}
	if err := json.Unmarshal(data, &cols); err != nil {
		return nil, nil, fmt.Errorf("docs benchmark: %s: %w", set.collections, err)
	}
	fh, err := datasets.FS.Open(set.questions)
	if err != nil {
		return nil, nil, fmt.Errorf("docs benchmark: %w", err)
	}
	defer fh.Close()
	qs, err := ReadDocsQuestions(fh)
	if err != nil {
		return nil, nil, fmt.Errorf("docs benchmark: %s: %w", set.questions, err)
	}
	return cols, qs, nil
}

// ReadDocsQuestions reads benchmark rows, one JSON object a line.
func ReadDocsQuestions(r io.Reader) ([]DocsQuestion, error) {
	var out []DocsQuestion
	sc := bufio.NewScanner(r)
	line := 0
	for sc.Scan() {
		line++
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var q DocsQuestion
		if err := json.Unmarshal(sc.Bytes(), &q); err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		if q.Question == "" || (!q.Abstain && (q.GoldFile == "" || q.Gold == "")) {
			return nil, fmt.Errorf("line %d (%s): an answerable row needs question, gold_file and gold", line, q.ID)
		}
		out = append(out, q)
	}
	return out, sc.Err()
}

// ResolveCollections expands environment variables in the roots with
// getenv and keeps the collections whose root exists; it returns the files
// their Include patterns match, sorted, and the names of collections it
// left out with why.
func ResolveCollections(cols []Collection, getenv func(string) string) ([]Collection, []string, []string) {
	var kept []Collection
	var files, missing []string
	for _, c := range cols {
		c.Root = filepath.Clean(os.Expand(c.Root, getenv))
		if st, err := os.Stat(c.Root); err != nil || !st.IsDir() {
			missing = append(missing, fmt.Sprintf("%s: root %s not found", c.Name, c.Root))
			continue
		}
		n := 0
		for _, inc := range c.Include {
			matches, _ := filepath.Glob(filepath.Join(c.Root, inc))
			files = append(files, matches...)
			n += len(matches)
		}
		if n == 0 {
			missing = append(missing, fmt.Sprintf("%s: nothing under %s matches %s", c.Name, c.Root, strings.Join(c.Include, " ")))
			continue
		}
		kept = append(kept, c)
	}
	slices.Sort(files)
	return kept, slices.Compact(files), missing
}

// RunDocs builds the store (unless cfg.Searcher is set), runs every question
// of a kept collection through the graph and scores it.
func RunDocs(ctx context.Context, cfg DocsConfig, files []string) (*DocsReport, error) {
	searcher := cfg.Searcher
	if searcher == nil {
		if cfg.Open == nil || cfg.Ingest == nil {
			return nil, fmt.Errorf("eval docs: no store: give Open and Ingest, or a Searcher")
		}
		st, err := cfg.Open(ctx)
		if err != nil {
			return nil, fmt.Errorf("eval docs: %w", err)
		}
		defer st.Close()
		if err := cfg.Ingest(ctx, st, files); err != nil {
			return nil, fmt.Errorf("eval docs: ingest: %w", err)
		}
		searcher = st
	}
	roots := map[string]string{}
	for _, c := range cfg.Collections {
		roots[c.Name] = c.Root
	}
	qs, notInstalled := askable(cfg.Questions, roots)
	opts := nodes.DefaultOptions()
	if cfg.Options != nil {
		opts = *cfg.Options
	}
	deps := cfg.Deps
	deps.Searcher = searcher
	g, err := nodes.Build(deps, opts)
	if err != nil {
		return nil, fmt.Errorf("eval docs: build graph: %w", err)
	}
	if cfg.States != "" {
		if err := os.MkdirAll(cfg.States, 0o755); err != nil {
			return nil, fmt.Errorf("eval docs: states: %w", err)
		}
	}
	results := make([]DocsResult, len(qs))
	err = forEach(ctx, len(qs), cfg.Concurrency, "questions", cfg.Progress, func(ctx context.Context, i int) error {
		run := RunOne(ctx, g, qs[i].Question)
		if run.Err != nil && ctx.Err() != nil {
			return ctx.Err()
		}
		results[i] = scoreDocs(qs[i], run, roots[qs[i].Collection])
		if cfg.States != "" {
			data, err := json.Marshal(DocsState{Question: qs[i], Root: roots[qs[i].Collection], State: run.State})
			if err != nil {
				return fmt.Errorf("%s: state: %w", qs[i].ID, err)
			}
			if err := os.WriteFile(StatesFile(cfg.States, qs[i].ID), data, 0o644); err != nil {
				return fmt.Errorf("%s: state: %w", qs[i].ID, err)
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("eval docs: %w", err)
	}
	rep := &DocsReport{Results: results, Paths: len(files), NotInstalled: notInstalled}
	var names []string
	for _, c := range cfg.Collections {
		names = append(names, c.Name)
	}
	for _, name := range append(names, "all") {
		rep.Figures = append(rep.Figures, docsFigures(name, results))
	}
	var times []float64
	for _, r := range results {
		times = append(times, r.MS)
	}
	sort.Float64s(times)
	if len(times) > 0 {
		rep.P50MS = times[len(times)/2]
		rep.P95MS = times[min(len(times)-1, len(times)*95/100)]
	}
	return rep, nil
}

// askable returns the questions of the kept collections (roots by
// name) and the ids of the answerable ones left out because their gold
// file is not installed under its collection's root: a machine with
// other packages than the set's writer had cannot answer them from
// that file, and counting them as misses would mix what is installed
// into what graphrag answers. Unanswerable rows with no collection are
// asked of every store.
func askable(all []DocsQuestion, roots map[string]string) (qs []DocsQuestion, notInstalled []string) {
	for _, q := range all {
		root, ok := roots[q.Collection]
		switch {
		case q.Abstain && (ok || q.Collection == ""):
			qs = append(qs, q)
		case !ok || q.Abstain:
		case !installed(filepath.Join(root, filepath.FromSlash(q.GoldFile))):
			notInstalled = append(notInstalled, q.ID)
		default:
			qs = append(qs, q)
		}
	}
	return qs, notInstalled
}

// installed reports whether a gold file is there to be read.
func installed(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

func scoreDocs(q DocsQuestion, run Run, root string) DocsResult {
	s := run.State
	r := DocsResult{ID: q.ID, Collection: q.Collection, Question: q.Question, Abstain: q.Abstain,
		Abstained: s.Answer.Abstained, Answer: s.Answer.Text, MS: run.TotalMS,
		Route: string(s.Plan.Route), Retrieval: s.Retrieval, Measured: s.Measured}
	if run.Err != nil {
		r.Err = run.Err.Error()
		// A failed run gave the user nothing: it counts as an abstention.
		r.Abstained = true
	}
	for _, c := range s.Answer.Citations {
		r.Cited = append(r.Cited, relTo(root, c.Hit.Source.Path))
	}
	if q.Abstain {
		r.Correct = r.Abstained
		return r
	}
	// A file may be ingested under the path a symbolic link points to
	// (/usr/share/man/man1/pg_dump.1.gz is a link into
	// /usr/share/postgresql/15/man): compare real paths.
	gold := realPath(filepath.Join(root, filepath.FromSlash(q.GoldFile)))
	isGold := func(p string) bool { return relTo(root, p) == q.GoldFile || realPath(p) == gold }
	goldText := normalizeDocs(q.Gold)
	// A hit stands for its copies too (graphrag.Hit.Copies).
	holdsGold := func(h graphrag.Hit) bool {
		return isGold(h.Source.Path) || slices.ContainsFunc(h.Copies, func(s graphrag.Source) bool { return isGold(s.Path) })
	}
	answers := func(h graphrag.Hit) bool {
		return holdsGold(h) && strings.Contains(normalizeDocs(h.Chunk.Text), goldText)
	}
	r.GoldInHits = slices.ContainsFunc(s.Hits, holdsGold)
	r.PassageInHits = slices.ContainsFunc(s.Hits, answers)
	r.PassageKept = slices.ContainsFunc(s.Kept, answers)
	if !r.Abstained {
		r.Words = len(strings.Fields(s.Answer.Text))
	}
	r.GoldFound = strings.Contains(normalizeDocs(s.Answer.Text), goldText)
	r.GoldCited = slices.ContainsFunc(s.Answer.Citations, func(c graphrag.Citation) bool { return holdsGold(c.Hit) })
	r.Correct = !r.Abstained && r.GoldFound && r.GoldCited
	r.CitedAsCopy = r.Correct && !slices.ContainsFunc(s.Answer.Citations, func(c graphrag.Citation) bool { return isGold(c.Hit.Source.Path) })
	if !r.Abstained && r.GoldFound && !r.GoldCited {
		r.CopyCited = slices.ContainsFunc(s.Answer.Citations, func(c graphrag.Citation) bool { return sameBytes(c.Hit.Source.Path, gold) })
	}
	return r
}

// maxCompared caps the files sameBytes reads: a documentation file is far
// smaller; a larger one is not taken for a copy.
const maxCompared = 16 << 20

// sameBytes reports whether two files hold the same bytes.
func sameBytes(a, b string) bool {
	read := func(p string) ([]byte, bool) {
		fi, err := os.Stat(p)
		if err != nil || fi.Size() > maxCompared {
			return nil, false
		}
		data, err := os.ReadFile(p)
		return data, err == nil
	}
	da, ok := read(a)
	if !ok {
		return false
	}
	db, ok := read(b)
	return ok && bytes.Equal(da, db)
}

// realPath is p with symbolic links resolved, p itself when that fails.
func realPath(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

// relTo is path relative to root when it lies under it, path otherwise.
func relTo(root, path string) string {
	if root == "" {
		return path
	}
	rel, err := filepath.Rel(root, path)
	if err != nil || strings.HasPrefix(rel, "..") {
		return path
	}
	return filepath.ToSlash(rel)
}

// normalizeDocs folds case and runs of white space, so a gold string
// matches across line breaks and indentation.
func normalizeDocs(s string) string {
	return strings.Join(strings.FieldsFunc(strings.ToLower(s), unicode.IsSpace), " ")
}

func docsFigures(name string, results []DocsResult) DocsFigures {
	f := DocsFigures{Collection: name}
	var answered, copies, asCopy, retrieved, passages, kept, abstained, falseAbstains int
	var words []int
	for _, r := range results {
		if name != "all" && r.Collection != name {
			continue
		}
		if r.Abstain {
			f.Unanswerable++
			if r.Abstained {
				abstained++
			}
			continue
		}
		f.Answerable++
		if r.Correct {
			answered++
		}
		if stage := r.LostAt(); stage != "" {
			if f.Lost == nil {
				f.Lost = map[string]int{}
			}
			f.Lost[stage]++
		}
		if r.CopyCited {
			copies++
		}
		if r.CitedAsCopy {
			asCopy++
		}
		if r.GoldInHits {
			retrieved++
		}
		if r.PassageInHits {
			passages++
		}
		if r.PassageKept {
			kept++
		}
		if r.Abstained {
			falseAbstains++
		} else {
			words = append(words, r.Words)
		}
	}
	share := func(n, of int) float64 {
		if of == 0 {
			return 0
		}
		return float64(n) / float64(of)
	}
	f.Answered, f.Retrieved, f.FalseAbstains = share(answered, f.Answerable), share(retrieved, f.Answerable), share(falseAbstains, f.Answerable)
	f.PassageRetrieved, f.PassageKept = share(passages, f.Answerable), share(kept, f.Answerable)
	f.Abstained = share(abstained, f.Unanswerable)
	if len(words) > 0 {
		slices.Sort(words)
		f.MedianWords = words[len(words)/2]
	}
	f.AnsweredWithCopies = share(answered+copies, f.Answerable)
	f.AnsweredFirstNamed = share(answered-asCopy, f.Answerable)
	return f
}

// WriteDocsTable prints the figures, then every miss with what went wrong.
func WriteDocsTable(w io.Writer, rep *DocsReport, all bool) error {
	fmt.Fprintf(w, "Real-documents benchmark: %d paths ingested, query p50 %.0f ms, p95 %.0f ms\n\n", rep.Paths, rep.P50MS, rep.P95MS)
	fmt.Fprintf(w, "%-12s %10s %9s %9s %12s %10s %14s %9s %9s %6s\n", "collection", "answerable", "answered", "gold hit", "unanswerable", "abstained", "false abstain", "passage", "kept", "words")
	for _, f := range rep.Figures {
		fmt.Fprintf(w, "%-12s %10d %8.0f%% %8.0f%% %12d %9.0f%% %13.0f%% %8.0f%% %8.0f%% %6d\n", f.Collection, f.Answerable, 100*f.Answered, 100*f.Retrieved, f.Unanswerable, 100*f.Abstained, 100*f.FalseAbstains, 100*f.PassageRetrieved, 100*f.PassageKept, f.MedianWords)
	}
	fmt.Fprintln(w, "(passage: a passage of the gold file holding the gold string was among the hits; kept: among the hits answered from; words: median answer length)")
	if n := len(rep.NotInstalled); n > 0 {
		fmt.Fprintf(w, "(%d answerable questions left out: their gold file is not installed here: %s)\n", n, strings.Join(rep.NotInstalled, " "))
	}
	if n := len(rep.Figures); n > 0 && rep.Figures[n-1].AnsweredWithCopies > rep.Figures[n-1].Answered {
		all := rep.Figures[n-1]
		fmt.Fprintf(w, "(answered %.0f%% counting answers that cite a byte-identical copy of the gold file)\n", 100*all.AnsweredWithCopies)
	}
	if n := len(rep.Figures); n > 0 && rep.Figures[n-1].AnsweredFirstNamed < rep.Figures[n-1].Answered {
		all := rep.Figures[n-1]
		fmt.Fprintf(w, "(answered %.0f%% counting only the file each citation names first: the others name the gold file as a copy of the text they cite)\n", 100*all.AnsweredFirstNamed)
	}
	if n := len(rep.Figures); n > 0 && len(rep.Figures[n-1].Lost) > 0 {
		fmt.Fprintln(w, "\nmissed answerable questions, by the first stage that failed them:")
		for _, stage := range LossStages {
			if c := rep.Figures[n-1].Lost[stage]; c > 0 {
				fmt.Fprintf(w, "  %-28s %4d\n", stage, c)
			}
		}
	}
	fmt.Fprintln(w)
	for _, r := range rep.Results {
		if r.Correct && !all {
			continue
		}
		mark := "ok  "
		if !r.Correct {
			mark = "MISS"
		}
		why := ""
		switch {
		case r.Err != "":
			why = "error: " + r.Err
		case r.Abstain && !r.Abstained:
			why = "answered, should abstain"
		case r.Abstain:
		case r.Abstained:
			why = "abstained"
		default:
			var parts []string
			if !r.GoldFound {
				parts = append(parts, "no gold string")
			}
			switch {
			case r.CopyCited:
				parts = append(parts, "cited a byte-identical copy of the gold file")
			case !r.GoldCited:
				parts = append(parts, "gold file not cited")
			}
			if !r.GoldInHits {
				parts = append(parts, "gold file not retrieved")
			}
			why = strings.Join(parts, ", ")
		}
		fmt.Fprintf(w, "%s %-7s %s", mark, r.ID, r.Question)
		if why != "" {
			fmt.Fprintf(w, "  [%s]", why)
		}
		fmt.Fprintln(w)
		if !r.Correct || all {
			ans := strings.Join(strings.Fields(r.Answer), " ")
			if len(ans) > 200 {
				ans = ans[:200] + "…"
			}
			fmt.Fprintf(w, "     answer: %s\n", ans)
			if len(r.Cited) > 0 {
				fmt.Fprintf(w, "     cited:  %s\n", strings.Join(r.Cited, ", "))
			}
		}
	}
	return nil
}
