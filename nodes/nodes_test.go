package nodes

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/graph"
)

func doc(id, title, text string) graphrag.Hit {
	return graphrag.Hit{
		Chunk:  graphrag.Chunk{ID: graphrag.ChunkID(id, 0), DocID: id, Text: text},
		Source: graphrag.Source{DocID: id, Path: "/notes/" + id + ".md", Title: title, Type: "md", ModTime: time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)},
	}
}

// smallCorpus is a handful of notes for node and graph tests.
func smallCorpus() *memSearcher {
	return newMemSearcher([]graphrag.Hit{
		doc("osprey", "Osprey", "The osprey is a fish-eating bird of prey. Ospreys nest near lakes and rivers across Scandinavia. An osprey can dive up to one metre under water."),
		doc("kestrel", "Kestrel", "The common kestrel hovers over fields hunting voles. Kestrels nest in tree holes and on cliffs."),
		doc("sourdough", "Sourdough starter", "Feed the sourdough starter every twelve hours with equal weights of flour and water. A healthy starter doubles within six hours."),
		doc("invoice", "Invoice INV-2024-0317", "Invoice INV-2024-0317 from Nordlicht GmbH covers two hundred hours of consulting, due on 30 June."),
	})
}

func TestRule(t *testing.T) {
	tests := []struct {
		query string
		want  graphrag.Route
	}{
		{"what is 17 times 23", graphrag.RouteDirect},
		{"what's 15 percent of 80", graphrag.RouteDirect},
		{"what does error E1045 mean", graphrag.RouteHybrid},
		{"what is in report_q3.pdf", graphrag.RouteHybrid},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			r, ok := matchRule(tt.query)
			if !ok || r.Route != tt.want {
				t.Errorf("matchRule(%q) = %v, %v; want %v", tt.query, r.Route, ok, tt.want)
			}
		})
	}
	t.Run("long question with numbers is not arithmetic", func(t *testing.T) {
		q := "Which team finished the 1998 season 2-6 in conference play under the coach from Ohio?"
		if r, ok := matchRule(q); ok && r.Route == graphrag.RouteDirect {
			t.Errorf("matchRule(%q) = direct (%s)", q, r.Reason)
		}
	})
}

func TestClassifierPredicts(t *testing.T) {
	tests := []struct {
		query string
		want  graphrag.Route
	}{
		{"which composer wrote the opera performed in Vienna", graphrag.RouteVector},
		{"list the biggest files in my downloads", graphrag.RouteFilesystem},
		{"good evening, how's it going", graphrag.RouteDirect},
	}
	clf, err := learnedRouter()
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			if got := clf.predict(tt.query); got.Best != tt.want {
				t.Errorf("predict(%q) = %s (%.2f); want %s", tt.query, got.Best, got.Probs[got.Best], tt.want)
			}
		})
	}
}

func TestExtract(t *testing.T) {
	tests := []struct {
		name, query string
		types       []string
		window      graphrag.TimeWindow
		hint        string
	}{
		{"pdfs this week", "which pdfs did I add this week", []string{"pdf"}, graphrag.TimeThisWeek, ""},
		{"markdown notes today", "what did my markdown notes say today about ospreys", []string{"md", "markdown"}, graphrag.TimeToday, ""},
		{"folder hint", "summarise the contract in my taxes folder", nil, graphrag.TimeAny, "taxes"},
		{"file hint", "what does the table in budget.xlsx show", nil, graphrag.TimeAny, "budget.xlsx"},
		{"month", "meetings this month", nil, graphrag.TimeThisMonth, ""},
		{"python language is a topic", "why is python popular", nil, graphrag.TimeAny, ""},
		{"quoted work title is no source", `which actor performed in "The Young Ones"`, nil, graphrag.TimeAny, ""},
		{"quoted folder", `what is in the "Tax 2024" folder about rent`, nil, graphrag.TimeAny, "Tax 2024"},
		{"a package path is no file type", "which of my csvs does encoding/xml or mime/pdf read", []string{"csv"}, graphrag.TimeAny, ""},
		{"a format's name is no file type", "can zorp export its frob report as Markdown", nil, graphrag.TimeAny, ""},
		{"a format before a noun is no file type", "how does zorp handle csv quoting", nil, graphrag.TimeAny, ""},
		{"a determiner makes a format a file", "what does the pdf say about ospreys", []string{"pdf"}, graphrag.TimeAny, ""},
		{"a folder path is no file type", "which settings does config/json/loader read", nil, graphrag.TimeAny, ""},
		{"a type word before a noun describes it", "how do I swap one zorp dictionary for another in my text search configuration", nil, graphrag.TimeAny, ""},
		{"a determiner names no folder", "where does zorpd start when the frobs in its directory are gone", nil, graphrag.TimeAny, ""},
		{"a folder after a determiner's", "which frobs in its folder and in the quux folder are kept", nil, graphrag.TimeAny, "quux"},
		{"a type word that ends its phrase", "what did I say in my text about ospreys", []string{"txt"}, graphrag.TimeAny, ""},
		{"a language before a noun", "why does my python service leak frobs", []string{"py"}, graphrag.TimeAny, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := extractFileTypes(tt.query); !slices.Equal(got, tt.types) {
				t.Errorf("file types = %v, want %v", got, tt.types)
			}
			if got := extractTime(tt.query); got != tt.window {
				t.Errorf("time = %q, want %q", got, tt.window)
			}
			if got := extractSourceHint(tt.query); got != tt.hint {
				t.Errorf("source hint = %q, want %q", got, tt.hint)
			}
		})
	}
	if kw := extractKeywords("what does error E1045 mean for the Osprey pump"); kw[0] != "E1045" || !slices.Contains(kw, "osprey") || slices.Contains(kw, "what") {
		t.Errorf("keywords = %v", kw)
	}
}

func TestRouteNode(t *testing.T) {
	p, err := newPipeline(Deps{Searcher: smallCorpus(), Web: &fakeWeb{}}, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		query string
		want  graphrag.Route
		by    string
	}{
		// General knowledge, no language model, and the notes hold it.
		{"Where do ospreys nest in Scandinavia?", graphrag.RouteVector, "probe"},
		{"what is the weather in Bergen", graphrag.RouteWeb, "learned"},
		{"show invoice INV-2024-0317", graphrag.RouteHybrid, "learned"},
		{"where do kestrels nest", graphrag.RouteVector, "probe"},
		{"hello there", graphrag.RouteDirect, "learned"},
		{"convert 20 euros to dollars", graphrag.RouteWeb, "learned"},
		{"how many ounces in a pound", graphrag.RouteDirect, "rules"},
		{"how many pdfs do i have", graphrag.RouteFilesystem, "learned"},
		{"how do i feed my starter", graphrag.RouteVector, "learned"},
		{"show me my newest notes", graphrag.RouteFilesystem, "learned"},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			s, err := p.route(context.Background(), State{Query: tt.query})
			if err != nil {
				t.Fatal(err)
			}
			if s.Plan.Route != tt.want || s.Plan.By != tt.by || s.Plan.Reason == "" {
				t.Errorf("plan = %s by %q (%s); want %s by %s", s.Plan.Route, s.Plan.By, s.Plan.Reason, tt.want, tt.by)
			}
			if s.Budget != p.opts.Budget {
				t.Errorf("budget = %+v, want the options' %+v", s.Budget, p.opts.Budget)
			}
		})
	}
}

// What the asker did to a file is the situation a question tells, not
// what it asks: the sentence that asks decides whether the file tools
// answer it.
func TestRouteReadsTheSentenceThatAsks(t *testing.T) {
	p, err := newPipeline(Deps{Searcher: smallCorpus()}, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		query string
		files bool
	}{
		{"I edited the alias file behind the mail filter. How can I make the filter re-read its files without changing any rule?", false},
		{"I edited the alias file behind the mail filter. Which files did I change this week?", true},
	}
	for _, tt := range tests {
		s, err := p.route(context.Background(), State{Query: tt.query})
		if err != nil {
			t.Fatal(err)
		}
		if got := s.Plan.Route == graphrag.RouteFilesystem; got != tt.files {
			t.Errorf("%q: routed %s (%s); want the file tools %v", tt.query, s.Plan.Route, s.Plan.Reason, tt.files)
		}
	}
}

func TestRetrieveCapabilitiesOff(t *testing.T) {
	p, _ := newPipeline(Deps{Searcher: smallCorpus()}, DefaultOptions())
	tests := []struct {
		route graphrag.Route
		want  string
	}{
		{graphrag.RouteFilesystem, "filesystem tools are not configured"},
		{graphrag.RouteWeb, "--web searxng=URL"},
	}
	for _, tt := range tests {
		t.Run(string(tt.route), func(t *testing.T) {
			s, err := p.retrieve(context.Background(), State{Plan: graphrag.Plan{Route: tt.route, Query: "x", By: "rules"}})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(s.ToolText, tt.want) {
				t.Errorf("tool text = %q, want it to contain %q", s.ToolText, tt.want)
			}
		})
	}
	t.Run("time window filters", func(t *testing.T) {
		p, _ := newPipeline(Deps{Searcher: smallCorpus(), Now: func() time.Time { return time.Date(2026, 12, 20, 0, 0, 0, 0, time.UTC) }}, DefaultOptions())
		s, err := p.retrieve(context.Background(), State{Plan: graphrag.Plan{Route: graphrag.RouteVector, Query: "osprey", Time: graphrag.TimeThisWeek}})
		if err != nil {
			t.Fatal(err)
		}
		if len(s.Hits) != 0 {
			t.Errorf("a note from last month passed a this-week filter: %v", s.Hits)
		}
	})
}

func TestEvaluateNode(t *testing.T) {
	c := scatteredCorpus()
	p, _ := newPipeline(Deps{Searcher: c}, DefaultOptions())
	search := func(q string) []graphrag.Hit {
		res, _ := c.Search(context.Background(), graphrag.Query{Text: q, K: 10})
		return res.Hits
	}
	tests := []struct {
		name, query string
		budget      int
		retrieval   string
		next        string
	}{
		{"good", "Where do ospreys nest?", 2, RetrievalGood, "generate"},
		{"unrelated with budget refines", "Do puffins nest on Svalbard cliffs near Longyearbyen?", 2, RetrievalPoor, "route"},
		{"a word no file holds: no refinement", "Which Zeppelin airship crossed the Atlantic Ocean?", 2, RetrievalEmpty, "generate"},
		{"no hits at all", "quantum chromodynamics lattice", 2, RetrievalEmpty, "generate"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := State{Query: tt.query, Plan: graphrag.Plan{Route: graphrag.RouteVector, Query: tt.query}, Hits: search(tt.query), Budget: Budget{Retrieve: tt.budget}}
			if tt.name == "a word no file holds: no refinement" {
				s.Hits = search("Atlantic bird nest") // poor hits: share only a word or two
			}
			got, err := p.evaluate(context.Background(), s)
			if err != nil {
				t.Fatal(err)
			}
			if d := afterEvaluate(got); got.Retrieval != tt.retrieval || d.To != tt.next {
				t.Errorf("retrieval %s → %s (%s); want %s → %s", got.Retrieval, d.To, d.Reason, tt.retrieval, tt.next)
			}
		})
	}
}

func TestExtractiveAnswer(t *testing.T) {
	c := smallCorpus()
	res, _ := c.Search(context.Background(), graphrag.Query{Text: "how often to feed the sourdough starter", K: 3})
	a := extractive("How often should I feed the sourdough starter?", res.Hits[:1], 2)
	if !strings.Contains(a.Text, "every twelve hours") || !strings.Contains(a.Text, "[1]") {
		t.Errorf("answer = %q", a.Text)
	}
	if len(a.Citations) != 1 || a.Citations[0].Hit.Chunk.DocID != "sourdough" {
		t.Errorf("citations = %+v", a.Citations)
	}
	if g := checkAnswer("How often should I feed the sourdough starter?", a, res.Hits[:1]).Support; g != 1 {
		t.Errorf("grounding of an extractive answer = %.2f, want 1", g)
	}
}

// offJudge finds every answer off the question.
type offJudge struct{ calls int }

func (j *offJudge) Judge(context.Context, string, graphrag.Answer, []graphrag.Hit) (graphrag.Judgement, error) {
	j.calls++
	return graphrag.Judgement{Verdict: graphrag.VerdictOffQuestion, Reason: "does not say how many", By: "llm", Usage: graphrag.Usage{Calls: 1}}, nil
}

func TestValidateNode(t *testing.T) {
	hit := doc("osprey", "Osprey", "Ospreys nest near lakes and rivers across Scandinavia.")
	cite := []graphrag.Citation{{N: 1, Hit: hit}}
	penguins := graphrag.Answer{Text: "Penguins migrate through Antarctica every winter [1].", Citations: cite, By: "llm"}
	tests := []struct {
		name    string
		query   string
		answer  graphrag.Answer
		budget  Budget
		judge   Judge
		verdict graphrag.Verdict
		next    string
		stop    string
		by      string
	}{
		{"grounded", "Where do ospreys nest in Scandinavia?", graphrag.Answer{Text: "Ospreys nest near lakes across Scandinavia [1].", Citations: cite, By: "extractive"}, Budget{1, 1, 1}, nil, graphrag.VerdictOK, graph.END, "answered", "extractive"},
		{"a short written answer passes", "Where do ospreys nest in Scandinavia?", graphrag.Answer{Text: "Near lakes and rivers [1]", Citations: cite, By: "llm"}, Budget{1, 1, 1}, nil, graphrag.VerdictOK, graph.END, "answered", "llm"},
		{"unsupported regenerates", "Where do ospreys nest in Scandinavia?", penguins, Budget{1, 1, 1}, nil, graphrag.VerdictUnsupported, "generate", "", "llm"},
		{"unsupported, budget spent: answered from the passages", "Where do ospreys nest in Scandinavia?", penguins, Budget{1, 0, 1}, nil, graphrag.VerdictOK, graph.END, "answer unsupported: answered from the passages", "extractive"},
		{"uncited garbage falls back at once", "Where do ospreys nest in Scandinavia?", graphrag.Answer{Text: `Sure! Here is the JSON: {"response": "ok"}`, By: "llm"}, Budget{1, 2, 1}, nil, graphrag.VerdictOK, graph.END, "answer unsupported: answered from the passages", "extractive"},
		{"wrong kind, judge says off question: route again", "How many ospreys nest in Scandinavia?", graphrag.Answer{Text: "Ospreys nest near lakes [1].", Citations: cite, By: "llm"}, Budget{1, 1, 1}, &offJudge{}, graphrag.VerdictOffQuestion, "route", "", "llm"},
		{"wrong kind, no judge: flagged, no loop", "How many ospreys nest in Scandinavia?", graphrag.Answer{Text: "Ospreys nest near lakes [1].", Citations: cite, By: "llm"}, Budget{1, 1, 1}, nil, graphrag.VerdictOK, graph.END, "answered", "llm"},
		{"off question, route budget spent", "How many ospreys nest in Scandinavia?", graphrag.Answer{Text: "Ospreys nest near lakes [1].", Citations: cite, By: "llm"}, Budget{1, 1, 0}, &offJudge{}, graphrag.VerdictOffQuestion, graph.END, "route budget spent", "llm"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, _ := newPipeline(Deps{Writer: &fakeWriter{}, Judge: tt.judge}, DefaultOptions())
			s := State{Query: tt.query, Answer: tt.answer, Kept: []graphrag.Hit{hit}, Budget: tt.budget}
			got, err := p.validate(context.Background(), s)
			if err != nil {
				t.Fatal(err)
			}
			d := afterValidate(got)
			if got.Verdict != tt.verdict || d.To != tt.next || got.Stop != tt.stop || got.Answer.By != tt.by {
				t.Errorf("verdict %s → %s stop %q by %s (%s); want %s → %s stop %q by %s", got.Verdict, d.To, got.Stop, got.Answer.By, d.Reason, tt.verdict, tt.next, tt.stop, tt.by)
			}
			if got.Verdict == graphrag.VerdictOK && d.To == graph.END && strings.Contains(got.Answer.Text, "Penguins") {
				t.Errorf("returned the unsupported answer %q", got.Answer.Text)
			}
		})
	}
}

func TestDirectAnswer(t *testing.T) {
	now := func() time.Time { return time.Date(2026, 11, 22, 9, 30, 0, 0, time.UTC) }
	tests := []struct{ q, want string }{
		{"what's 15% of 68", "10.2"},
		{"what is 100 multiplied by 55", "5500"},
		{"what is 592 minus 124", "468"},
		{"what is the square root of 144", "12"},
		{"what time is it", "Sunday, 22 November 2026"},
		{"hey, how are you", "Hello"},
		{"convert 5 miles to km", "8.04672 kilometres"},
		{"how many ounces in a pound", "16 ounces"},
		{"i need to know how many pounds are in 10 kilos", "22.046226 pounds"},
		{"what's 30 celsius in fahrenheit", "86 °F"},
		{"how many teaspoons in a tablespoon", "3 teaspoons"},
	}
	for _, tt := range tests {
		t.Run(tt.q, func(t *testing.T) {
			got, ok := directAnswer(tt.q, now)
			if !ok || !strings.Contains(got, tt.want) {
				t.Errorf("directAnswer(%q) = %q, %v; want it to contain %q", tt.q, got, ok, tt.want)
			}
		})
	}
}

var errBoom = errors.New("model unreachable")
