package nodes

import (
	"bufio"
	"bytes"
	"compress/gzip"
	_ "embed"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
)

// The router's training data (routerdata/README.md gives sources and
// licences): train.jsonl.gz is derived from CLINC150 and NL2Bash by
// routerdata/derive.go; exemplars.jsonl was written for graphrag and shares
// no row with the evaluation data.
var (
	//go:embed routerdata/train.jsonl.gz
	publicTrainingData []byte
	//go:embed routerdata/exemplars.jsonl
	exemplarData []byte
)

// Sources of training rows, for leave-one-source-out evaluation.
const (
	SourceCLINC150 = "clinc150"
	SourceNL2Bash  = "nl2bash"
	SourceGraphrag = "graphrag"
)

// TrainingSources lists the sources of the router's training data.
var TrainingSources = []string{SourceCLINC150, SourceNL2Bash, SourceGraphrag}

// trainingRow is one labelled query.
type trainingRow struct {
	Query  string
	Intent string
	Class  string
	Source string
}

// trainingExamples are the training rows with their features, computed
// once per process: the leave-one-source-out run trains three routers on
// them. Callers must not modify them.
var trainingExamples = sync.OnceValues(func() ([]example, error) {
	rows, err := loadTrainingRows()
	if err != nil {
		return nil, err
	}
	return featurize(rows), nil
})

// loadTrainingRows reads the embedded training data and labels each row
// with its class from the policy.
func loadTrainingRows() ([]trainingRow, error) {
	pol, err := parsePolicy(policyData)
	if err != nil {
		return nil, err
	}
	zr, err := gzip.NewReader(bytes.NewReader(publicTrainingData))
	if err != nil {
		return nil, fmt.Errorf("router training data: %w", err)
	}
	var rows []trainingRow
	add := func(name string, line int, q, intent, source string) error {
		class, err := pol.class(intent)
		if err != nil {
			return fmt.Errorf("%s line %d: %w", name, line, err)
		}
		if strings.TrimSpace(q) == "" {
			return fmt.Errorf("%s line %d: empty query", name, line)
		}
		rows = append(rows, trainingRow{Query: q, Intent: intent, Class: class, Source: source})
		return nil
	}
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for line := 1; sc.Scan(); line++ {
		var r struct{ Q, Intent, Source string }
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return nil, fmt.Errorf("train.jsonl.gz line %d: %w", line, err)
		}
		if err := add("train.jsonl.gz", line, r.Q, r.Intent, r.Source); err != nil {
			return nil, err
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("router training data: %w", err)
	}
	sc = bufio.NewScanner(bytes.NewReader(exemplarData))
	for line := 1; sc.Scan(); line++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var r struct{ Query, Intent string }
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return nil, fmt.Errorf("exemplars.jsonl line %d: %w", line, err)
		}
		if err := add("exemplars.jsonl", line, r.Query, r.Intent, SourceGraphrag); err != nil {
			return nil, err
		}
	}
	return rows, sc.Err()
}

// minRequestOpenings is how many requests to act of the training data a
// word must open to count as a request's verb (see opensLikeRequest): a
// word that opens one row is that row's quirk ("gzip" opens one NL2Bash
// command), not how requests are put.
const minRequestOpenings = 2

// requestOpeners are the first words of the training data's requests to
// act ("delete", "archive", "please", "i"), read once, when a query the
// classifier takes for a request is first checked. Nil when the training
// data cannot be read: then every query opens like a request, as before.
var requestOpeners = sync.OnceValue(func() map[string]bool {
	rows, err := loadTrainingRows()
	if err != nil {
		return nil
	}
	n := map[string]int{}
	for _, r := range rows {
		if f := strings.Fields(strings.ToLower(r.Query)); len(f) > 0 && r.Class == classAction {
			n[f[0]]++
		}
	}
	out := map[string]bool{}
	for w, c := range n {
		if c >= minRequestOpenings {
			out[w] = true
		}
	}
	return out
})

// opensLikeRequest reports whether a query opens as requests to act do in
// the training data: with a verb ("archive the logs"), a courtesy
// ("please …") or the asker ("i need …"). Search words ("http server
// shutdown", "filepath walk") open with a noun that opens no request: the
// classifier's "action" for them is its reading of a rare word as a verb.
//
// Only search words are checked: a query of a few words with no article or
// pronoun. A request names what to act on with one ("roll a die", "delete
// the cache", "book me a table"), whatever word it opens with.
//
// A longer query opens as a request with an opener, or names what to act
// on right after its first word or two ("cancel my zorp subscription for
// next month", "turn off the frob alarm at nine tonight"). A noun phrase
// names its thing after a preposition ("default size of a zorp buffer in
// frobdb"): that is a search too.
func opensLikeRequest(query string) bool {
	f := strings.Fields(strings.ToLower(query))
	for i := range f {
		f[i] = strings.Trim(f[i], ".,;:!?\"'()")
	}
	if len(f) == 0 {
		return true
	}
	openers := requestOpeners()
	if openers == nil || openers[f[0]] {
		return true
	}
	if len(f) <= maxSearchWords {
		return slices.ContainsFunc(f, func(w string) bool { return objectMarkers[w] })
	}
	return objectMarkers[f[1]] || len(f) > 2 && !prepositions[f[1]] && objectMarkers[f[2]]
}

// prepositions are the words after which an article opens a noun
// phrase's complement, not a request's object; those that are as often
// a verb's particle ("turn on the", "log in to") are left out.
var prepositions = toSet(`of for from with by about into between per`)

// maxSearchWords is the most words opensLikeRequest reads as search words;
// a longer query is a sentence.
const maxSearchWords = 5

// objectMarkers are the articles and pronouns by which a request names
// what to act on.
var objectMarkers = toSet(`a an the my me our us your you it its this that these those i we them his her their`)
