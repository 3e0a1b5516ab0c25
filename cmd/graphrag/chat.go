package main

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/nodes"
	"github.com/spf13/cobra"
)

const chatHelp = `Ask questions about your files; follow-ups may refer to earlier answers.
  /sources   the passages behind the last answer
  /open N    the passage of source [N] of the last answer
  /trace     the path the last question took through the graph
  /reset     forget the conversation
  /help      this text
  /quit      leave (or Ctrl-D)`

func (a *app) chatCmd() *cobra.Command {
	var f runFlags
	var turns int
	cmd := &cobra.Command{
		Use:   "chat",
		Short: "Ask questions in a conversation, with /sources and /trace",
		Long:  "A multi-turn conversation with your files.\n\n" + chatHelp,
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			p, err := a.openPipeline(ctx, f.options())
			if err != nil {
				return err
			}
			defer p.Close()
			out := cmd.OutOrStdout()
			a.notify(p.notices...)
			if !a.quiet {
				fmt.Fprintln(a.io.err, "Type a question, /help for commands, /quit to leave.")
			}
			var (
				history []graphrag.Turn
				last    *nodes.State
				lastLog *traceLog
			)
			in := bufio.NewScanner(a.io.in)
			in.Buffer(make([]byte, 64*1024), 1<<20)
			for {
				if !a.quiet {
					fmt.Fprint(a.io.err, "\n› ")
				}
				if !in.Scan() {
					if !a.quiet {
						fmt.Fprintln(a.io.err)
					}
					return in.Err()
				}
				line := strings.TrimSpace(in.Text())
				switch {
				case line == "":
					continue
				case line == "/quit" || line == "/exit":
					return nil
				case line == "/help":
					fmt.Fprintln(out, chatHelp)
					continue
				case line == "/reset":
					history, last, lastLog = nil, nil, nil
					fmt.Fprintln(out, "(conversation forgotten)")
					continue
				case line == "/sources":
					if last == nil {
						fmt.Fprintln(out, "(no answer yet)")
						continue
					}
					printSourceTexts(out, *last)
					continue
				case line == "/trace":
					if last == nil {
						fmt.Fprintln(out, "(no answer yet)")
						continue
					}
					lastLog.print(out, *last)
					continue
				case strings.HasPrefix(line, "/open"):
					n, err := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(line, "/open")))
					switch {
					case last == nil:
						fmt.Fprintln(out, "(no answer yet)")
					case err != nil:
						fmt.Fprintln(out, "usage: /open N, N the number of a source, e.g. /open 1")
					default:
						if err := showCitation(out, *last, n); err != nil {
							fmt.Fprintf(out, "(%v)\n", err)
						}
					}
					continue
				case strings.HasPrefix(line, "/"):
					fmt.Fprintf(out, "unknown command %s; /help lists them\n", line)
					continue
				}
				final, tl, err := a.askState(ctx, p, &f, nodes.State{Query: line, History: history}, out)
				if err != nil {
					if ctx.Err() != nil {
						return ctx.Err()
					}
					fmt.Fprintln(a.io.err, "error:", err)
					continue
				}
				last, lastLog = &final, tl
				history = append(history, graphrag.Turn{Query: line, Answer: final.Answer.Text})
				if len(history) > turns {
					history = history[len(history)-turns:]
				}
			}
		},
	}
	f.bind(cmd)
	cmd.Flags().IntVar(&turns, "history", 6, "how many past turns the models see")
	return cmd
}

// printSourceTexts prints each cited passage with its text.
func printSourceTexts(out io.Writer, s nodes.State) {
	if len(s.Answer.Citations) == 0 {
		fmt.Fprintln(out, "(the last answer cites no passages)")
		return
	}
	for _, c := range s.Answer.Citations {
		fmt.Fprintf(out, "[%d] %s (score %.3g)\n", c.N, describeSource(c.Hit), c.Hit.Score)
		text := strings.Join(strings.Fields(c.Hit.Chunk.Text), " ")
		fmt.Fprintf(out, "    %s\n\n", truncate(text, 600))
	}
}

// truncate cuts s to at most n runes, marking the cut.
func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
