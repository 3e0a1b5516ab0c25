package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/graph"
	"github.com/graphrag/graphrag/nodes"
	"github.com/graphrag/graphrag/server"
	"github.com/spf13/cobra"
)

// runFlags are the flags run and chat share.
type runFlags struct {
	trace, json bool
	k           int
	retries     int
	maxSteps    int
}

func (f *runFlags) bind(cmd *cobra.Command) {
	def := nodes.DefaultOptions()
	cmd.Flags().BoolVar(&f.trace, "trace", false, "show the path through the graph: each step, decision, reason and timing")
	cmd.Flags().BoolVar(&f.json, "json", false, "print one JSON object (answer, sources, route, plan, trace, notes) instead of text")
	cmd.Flags().Var(newAtLeast(&f.k, def.K, 1, "how many passages to retrieve"), "k", "how many passages to retrieve")
	cmd.Flags().IntVar(&f.retries, "retries", def.Budget.Retrieve, "retry budget of each loop (refine the query, rewrite the answer, route again)")
	cmd.Flags().IntVar(&f.maxSteps, "max-steps", def.MaxSteps, "stop a run after this many steps")
}

func (f *runFlags) options() nodes.Options {
	o := nodes.DefaultOptions()
	o.K = f.k
	o.Budget = nodes.Budget{Retrieve: f.retries, Generate: f.retries, Route: f.retries}
	o.MaxSteps = f.maxSteps
	return o
}

func (a *app) runCmd() *cobra.Command {
	var (
		f          runFlags
		show       int
		thread     string
		confirmWeb bool
	)
	cmd := &cobra.Command{
		Use:   "run QUESTION",
		Short: "Answer one question from your ingested files",
		Long: `Run one question through the RAG graph and print the answer, its sources and
a confidence note. A question that starts with "-" goes after --:
  graphrag run -- "-race: what does it find?"

Without a language model the answer is extractive: the sentences of your files
that best answer the question, each with a citation [n]. With --llm (Ollama or
an OpenAI-compatible server) a model writes the answer from the same evidence.`,
		Example: `  graphrag run "when does the nightly backup run?"
  graphrag run --trace "how much was invoice INV-2024-0117?"
  graphrag run --json "how many PDFs do I have" | jq .sources`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			q := strings.TrimSpace(strings.Join(args, " "))
			if q == "" {
				return errNoQuery
			}
			if err := nodes.CheckQuery(q, nil); err != nil {
				return err
			}
			if confirmWeb {
				a.confirmWeb = a.askWeb(stdinLines(a.io.in))
			}
			opts := f.options()
			opts.ConfirmWeb = confirmWeb
			p, err := a.openPipeline(cmd.Context(), opts)
			if err != nil {
				return err
			}
			defer p.Close()
			if !f.json {
				a.notify(p.notices...)
			}
			th, err := a.openThread(cmd.Context(), thread)
			if err != nil {
				return err
			}
			defer th.Close()
			in, err := a.threadState(cmd.Context(), th, q)
			if err != nil {
				return err
			}
			final, _, err := a.askState(cmd.Context(), p, &f, in, cmd.OutOrStdout())
			if err == nil {
				err = th.save(cmd.Context(), in.Query, final)
			}
			if err != nil || show <= 0 || f.json {
				return err
			}
			fmt.Fprintln(cmd.OutOrStdout())
			return showCitation(cmd.OutOrStdout(), final, show)
		},
	}
	f.bind(cmd)
	cmd.Flags().IntVar(&show, "show", 0, "also print the passage of source [N] of the answer")
	cmd.Flags().BoolVar(&confirmWeb, "confirm-web", false, "ask (on stdin) before the question is sent to the web search (--web); no, or no answer, answers from your files only")
	cmd.Flags().StringVar(&thread, "thread", "", "continue the conversation NAME: earlier turns are the question's history, and this turn is kept for the next (see `graphrag threads`)")
	return cmd
}

// notify prints notices to stderr unless --quiet.
func (a *app) notify(notices ...string) {
	if a.quiet {
		return
	}
	for _, n := range notices {
		fmt.Fprintln(a.io.err, "note:", n)
	}
}

// askState runs one question and prints the result; it returns the final
// state (for chat's history, run --show and chat /open) and the trace.
func (a *app) askState(ctx context.Context, p *pipeline, f *runFlags, in nodes.State, out io.Writer) (nodes.State, *traceLog, error) {
	rec := server.NewRecorder()
	tl := &traceLog{}
	var status io.Writer
	if !a.quiet {
		status = a.io.err
	}
	stream := &answerStream{out: out, status: status, live: isTerminal(out)}
	observe := func(ev graph.Event) {
		rec.Observe(ev)
		tl.observe(ev)
		if !f.json {
			stream.observe(ev)
		}
	}
	if err := nodes.CheckQuery(in.Query, in.History); err != nil {
		return in, tl, err
	}
	final, err := p.invoke(ctx, in, graph.WithObserver(observe))
	if err != nil {
		stream.abort()
		return final, tl, fmt.Errorf("run %q: %w", in.Query, err)
	}
	if f.json {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return final, tl, enc.Encode(rec.Response(final, false))
	}
	stream.finish(final)
	printSources(out, final)
	printConfidence(out, final)
	if f.trace {
		fmt.Fprintln(out)
		tl.print(out, final)
	}
	return final, tl, nil
}

func printSources(out io.Writer, s nodes.State) {
	if len(s.Answer.Citations) == 0 {
		return
	}
	fmt.Fprintln(out, "\nSources")
	for _, c := range s.Answer.Citations {
		fmt.Fprintf(out, "  [%d] %s\n", c.N, describeCitation(c, readCited(c.Hit)))
	}
}

// describeSource names a hit for people: a path relative to the working
// directory, the corpus row's title, or the URL.
func describeSource(h graphrag.Hit) string {
	src := h.Source
	switch {
	case src.URL != "":
		return fmt.Sprintf("%s — %s", src.Title, src.URL)
	case src.Type == "jsonl":
		id := src.DocID
		if row, ok := graphrag.RowID(id, src.Path); ok {
			id = row
		}
		return fmt.Sprintf("%s (%s: %s)", src.Title, filepath.Base(src.Path), id)
	}
	where := displayRel(src.Path)
	if where == "" {
		where = src.Title
	}
	if h.Chunk.ID != "" && h.Chunk.Ordinal > 0 {
		return fmt.Sprintf("%s, part %d", where, h.Chunk.Ordinal+1)
	}
	return where
}

func displayRel(p string) string {
	if p == "" {
		return ""
	}
	if wd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(wd, p); err == nil && !strings.HasPrefix(rel, "..") {
			return rel
		}
	}
	return displayPath(p)
}

func printConfidence(out io.Writer, s nodes.State) {
	a := s.Answer
	var parts []string
	switch {
	case a.Abstained:
		parts = append(parts, "nothing in your files answers this")
	case len(a.Citations) > 0:
		parts = append(parts, fmt.Sprintf("grounded %.0f%%", 100*a.Grounding), fmt.Sprintf("covers %.0f%% of the question's keywords", 100*a.Coverage))
	}
	route := string(s.Plan.Route)
	if s.Plan.By != "" {
		route += " (" + s.Plan.By + ")"
	}
	parts = append(parts, "route "+route)
	if n := s.Loops.Retrieve + s.Loops.Generate + s.Loops.Route; n > 0 {
		parts = append(parts, fmt.Sprintf("%d loop(s) taken", n))
	}
	fmt.Fprintln(out, "\n"+strings.Join(parts, " · "))
	for _, c := range nodes.Caveats(s) {
		fmt.Fprintln(out, c)
	}
	if s.Stop != "" && s.Stop != "answered" && s.Stop != "abstained" {
		fmt.Fprintln(out, "Stopped:", s.Stop)
	}
}

// traceLog keeps a run's events for --trace and chat's /trace.
type traceLog struct{ events []graph.Event }

func (t *traceLog) observe(ev graph.Event) {
	if ev.Kind == graph.EventCustom && ev.Name == "token" {
		return
	}
	if ev.Kind == graph.EventRunEnd {
		ev.Payload = nil // the final state is printed separately
	}
	t.events = append(t.events, ev)
}

func (t *traceLog) print(out io.Writer, s nodes.State) {
	fmt.Fprintln(out, "Trace")
	var total time.Duration
	for _, ev := range t.events {
		switch ev.Kind {
		case graph.EventNodeEnd:
			status := ""
			switch {
			case errors.Is(ev.Err, graph.ErrInterrupted):
				status = "  paused: the run asked before going on, and resumed with the answer"
			case ev.Err != nil:
				status = "  error: " + ev.Err.Error()
			}
			if ev.Subgraph != "" {
				// A node of a subgraph (retrieve's branches): shown under
				// the subgraph's own line, which follows, and timed within it.
				if ev.Branch > 0 {
					status = fmt.Sprintf("  ∥ branch %d", ev.Branch) + status
				}
				fmt.Fprintf(out, "        %-18s %8s%s\n", ev.Subgraph+"/"+ev.Node, fmtDuration(ev.Duration), status)
				continue
			}
			total += ev.Duration
			fmt.Fprintf(out, "  %2d  %-9s %8s%s\n", ev.Step, ev.Node, fmtDuration(ev.Duration), status)
		case graph.EventDecision:
			fmt.Fprintf(out, "          → %s: %s\n", ev.To, ev.Reason)
		case graph.EventCustom:
			fmt.Fprintf(out, "          · %s: %v\n", ev.Name, ev.Payload)
		}
	}
	fmt.Fprintf(out, "  plan: %s by %s — %s\n", s.Plan.Route, s.Plan.By, s.Plan.Reason)
	if s.SearchNote != "" {
		fmt.Fprintf(out, "  search: %s\n", s.SearchNote)
	}
	fmt.Fprintf(out, "  loops taken: retrieve %d, generate %d, route %d; budget left: %d, %d, %d\n",
		s.Loops.Retrieve, s.Loops.Generate, s.Loops.Route, s.Budget.Retrieve, s.Budget.Generate, s.Budget.Route)
	for _, n := range s.Notes {
		fmt.Fprintf(out, "  note: %s\n", n)
	}
	fmt.Fprintf(out, "  stop: %s · %d steps in %s\n", s.Stop, len(t.stepsOf()), fmtDuration(total))
}

func (t *traceLog) stepsOf() []graph.Event {
	var out []graph.Event
	for _, ev := range t.events {
		if ev.Kind == graph.EventNodeEnd && ev.Subgraph == "" {
			out = append(out, ev)
		}
	}
	return out
}

func fmtDuration(d time.Duration) string {
	switch {
	case d < time.Millisecond:
		return fmt.Sprintf("%.2fms", float64(d.Microseconds())/1000)
	case d < time.Second:
		return fmt.Sprintf("%.1fms", float64(d.Microseconds())/1000)
	}
	return d.Round(10 * time.Millisecond).String()
}
