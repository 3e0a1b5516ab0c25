package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/graph"
	"github.com/graphrag/graphrag/nodes"
)

// TestAnswerStream: a draft validate rejects is never left standing as the
// answer, and the final answer is printed once.
func TestAnswerStream(t *testing.T) {
	token := func(s string) graph.Event { return graph.Event{Kind: graph.EventCustom, Name: "token", Payload: s} }
	rejected := graph.Event{Kind: graph.EventCustom, Name: nodes.EventDraftRejected, Payload: "not supported by its sources: support 0.00, not in the cited text: Kate"}
	final := nodes.State{Answer: graphrag.Answer{Text: "Cornflake Girl is a song by Tori Amos [1]."}}
	tests := []struct {
		name       string
		live       bool
		events     []graph.Event
		want       string
		wantStatus string
	}{
		{"terminal: accepted draft printed once", true, []graph.Event{token("Cornflake Girl is a song "), token("by Tori Amos [1].")},
			"Cornflake Girl is a song by Tori Amos [1].\n", ""},
		{"terminal: withdrawn draft says why, answer once", true, []graph.Event{token("The answer is Kate Bush [1]."), rejected},
			"The answer is Kate Bush [1].\n\n(withdrawn, not supported by its sources: support 0.00, not in the cited text: Kate)\n\nCornflake Girl is a song by Tori Amos [1].\n", ""},
		{"pipe: only the validated answer", false, []graph.Event{token("The answer is Kate Bush [1]."), rejected, token("Cornflake Girl is a song by Tori Amos [1].")},
			"Cornflake Girl is a song by Tori Amos [1].\n", "note: a draft answer was withdrawn, not supported by its sources: support 0.00, not in the cited text: Kate\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, status bytes.Buffer
			s := &answerStream{out: &out, status: &status, live: tt.live}
			for _, ev := range tt.events {
				s.observe(ev)
			}
			s.finish(final)
			if out.String() != tt.want || status.String() != tt.wantStatus {
				t.Errorf("out:\n%s\nstatus:\n%s\nwant out:\n%s\nstatus:\n%s", out.String(), status.String(), tt.want, tt.wantStatus)
			}
			if n := strings.Count(out.String(), "Tori Amos"); n != 1 {
				t.Errorf("the final answer is printed %d times", n)
			}
		})
	}
}
