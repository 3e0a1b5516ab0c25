package nodes

import (
	"context"
	"slices"
	"testing"

	"github.com/graphrag/graphrag"
)

// TestCheckAnswer: an answer is judged by whether its claims are in the
// passages it cites and whether it is the kind of answer asked for, not by
// how many of the question's words it repeats.
func TestCheckAnswer(t *testing.T) {
	song := doc("cg", "Cornflake Girl", `"Cornflake Girl" is a song by Tori Amos, released on 10 January 1994 as the second single from Under the Pink. It reached number 4 in the UK.`)
	bands := doc("lh", "Local H", "Local H is an American rock band from Zion, Illinois, formed in 1987.")
	other := doc("b", "Berlin", "Berlin is the capital of Germany.")
	cite := func(hs ...graphrag.Hit) []graphrag.Citation {
		var out []graphrag.Citation
		for i, h := range hs {
			out = append(out, graphrag.Citation{N: i + 1, Hit: h})
		}
		return out
	}
	tests := []struct {
		name, question, answer string
		cites                  []graphrag.Citation
		missing                []string
		kind                   string
		fits, supported        bool
	}{
		{"a perfect sentence", "Who sang Cornflake Girl?", "The answer is Tori Amos [1].", cite(song), nil, kindName, true, true},
		{"a terse answer repeats no question word", "Who sang Cornflake Girl?", "Tori Amos [1]", cite(song), nil, kindName, true, true},
		{"a paraphrase in two sentences", "Who sang Cornflake Girl?", "Going by the excerpts, the reply to that is Tori Amos [1]. The passage about Cornflake Girl says as much [1].", cite(song), nil, kindName, true, true},
		{"a name the cited passage lacks", "Who sang Cornflake Girl?", "The answer is Kate Bush [1].", cite(song), []string{"Kate", "Bush"}, kindName, true, false},
		{"a name from a passage it does not cite", "Who sang Cornflake Girl?", "The answer is Tori Amos [1].", cite(other), []string{"Tori", "Amos"}, kindName, true, false},
		{"a wrong number", "What chart position did Cornflake Girl reach in the UK?", "It reached number 7 [1].", cite(song), []string{"7"}, kindAny, true, false},
		{"a wrong date", "When was Cornflake Girl released?", "It was released in 1995 [1].", cite(song), []string{"1995"}, kindDate, true, false},
		{"a right date", "When was Cornflake Girl released?", "It was released on 10 January 1994 [1].", cite(song), nil, kindDate, true, true},
		{"a misquote", "What album is Cornflake Girl from?", `It is from "Under the Sea" [1].`, cite(song), []string{"Sea", `"Under the Sea"`}, kindAny, true, false},
		{"yes to a yes/no question", "Is Local H from the United States?", "Yes [1]", cite(bands), nil, kindYesNo, true, true},
		{"no yes or no to a yes/no question", "Is Local H from the United States?", "Local H formed in 1987 [1].", cite(bands), nil, kindYesNo, false, true},
		{"one of the options", "Which band, Local H or Screaming Trees, formed first?", "Local H [1]", cite(bands), nil, kindChoice, true, true},
		{"neither option", "Which band, Local H or Screaming Trees, formed first?", "Zion, Illinois [1]", cite(bands), nil, kindChoice, false, true},
		{"a number for how many", "How many singles came before Cornflake Girl on Under the Pink?", "One [1]", cite(song), nil, kindNumber, true, true},
		{"no number for how many", "How many singles came before Cornflake Girl on Under the Pink?", "It is a song by Tori Amos [1].", cite(song), nil, kindNumber, false, true},
		{"garbage", "Who sang Cornflake Girl?", `Sure! Here is the JSON: {"response": "as an AI language model I think so"}`, nil, []string{"JSON", "AI", `"response"`, `"as an AI language model I think so"`}, kindName, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := checkAnswer(tt.question, graphrag.Answer{Text: tt.answer, Citations: tt.cites, By: "llm"}, []graphrag.Hit{song})
			if !slices.Equal(c.Missing, tt.missing) || c.Kind != tt.kind || c.Fits != tt.fits || c.Supported(DefaultOptions().LowConfidence) != tt.supported {
				t.Errorf("check = %+v (%s), supported %v; want missing %q, kind %s, fits %v, supported %v", c, c, c.Supported(DefaultOptions().LowConfidence), tt.missing, tt.kind, tt.fits, tt.supported)
			}
		})
	}
}

// modelWriter answers every question with a fixed answer.
type modelWriter struct{ answer graphrag.Answer }

func (w modelWriter) Write(context.Context, graphrag.WriteRequest, func(string)) (graphrag.Answer, error) {
	a := w.answer
	a.Usage = graphrag.Usage{Calls: 1}
	return a, nil
}

// TestModelAbstentions: a model that says it does not know abstains on
// the direct route; one that finds no answer in passages that match the
// question well gets the extractive answer from them, flagged.
func TestModelAbstentions(t *testing.T) {
	ctx := context.Background()
	p, _ := newPipeline(Deps{Searcher: smallCorpus(), Writer: modelWriter{graphrag.Answer{Text: "I do not know."}}}, DefaultOptions())
	s := State{Query: "Who painted the ceiling of the Sistine Chapel?", Plan: graphrag.Plan{Route: graphrag.RouteDirect}}
	if a := p.direct(ctx, &s); !a.Abstained {
		t.Errorf("direct answer %q not an abstention", a.Text)
	}
	hit := doc("osprey", "Osprey", "Ospreys nest near lakes and rivers across Scandinavia.")
	p, _ = newPipeline(Deps{Searcher: smallCorpus(), Writer: modelWriter{graphrag.Answer{Text: "No relevant information found.", Abstained: true}}}, DefaultOptions())
	got, err := p.generate(ctx, State{Query: "Where do ospreys nest?", Plan: graphrag.Plan{Route: graphrag.RouteVector}, Retrieval: RetrievalGood, Kept: []graphrag.Hit{hit}})
	if err != nil {
		t.Fatal(err)
	}
	if got.Answer.Abstained || got.Answer.By != "extractive" || !got.Answer.LowConfidence {
		t.Errorf("answer %q by %s abstained %v low confidence %v; want the extractive answer, flagged", got.Answer.Text, got.Answer.By, got.Answer.Abstained, got.Answer.LowConfidence)
	}
}
