package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/graphrag/graphrag/graph"
	"github.com/graphrag/graphrag/nodes"
)

// answerStream prints a run's answer as the graph writes it. On a terminal
// the draft streams token by token, and a draft that validate sends back
// is followed by a status line with validate's reason, so it is never
// left standing as the answer; anywhere else (a pipe, a file) nothing is
// printed until the answer is validated, and a withdrawn draft is only a
// note on the status writer (nil: say nothing). Either way the final answer
// is printed once.
type answerStream struct {
	out, status io.Writer
	live        bool
	draft       strings.Builder
	shown       bool // live: the current draft is on the screen
}

func (s *answerStream) observe(ev graph.Event) {
	if ev.Kind != graph.EventCustom {
		return
	}
	switch ev.Name {
	case "token":
		tok, _ := ev.Payload.(string)
		s.draft.WriteString(tok)
		if s.live {
			fmt.Fprint(s.out, tok)
			s.shown = true
		}
	case nodes.EventDraftRejected:
		why, _ := ev.Payload.(string)
		if s.draft.Len() == 0 {
			return // the answer was not streamed: nothing to withdraw
		}
		switch {
		case s.shown:
			fmt.Fprintf(s.out, "\n\n(withdrawn, %s)\n\n", why)
		case s.status != nil:
			fmt.Fprintf(s.status, "note: a draft answer was withdrawn, %s\n", why)
		}
		s.draft.Reset()
		s.shown = false
	}
}

// finish prints the final answer, unless it is the draft already on the
// screen.
func (s *answerStream) finish(final nodes.State) {
	if s.shown && strings.TrimSpace(s.draft.String()) == strings.TrimSpace(final.Answer.Text) {
		fmt.Fprintln(s.out)
		return
	}
	if s.shown {
		fmt.Fprint(s.out, "\n\n")
	}
	fmt.Fprintln(s.out, final.Answer.Text)
}

// abort ends a streamed line after a failed run.
func (s *answerStream) abort() {
	if s.shown {
		fmt.Fprintln(s.out)
	}
}
