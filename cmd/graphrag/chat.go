package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/chzyer/readline"
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
  /quit      leave (or Ctrl-D)
On a terminal: arrows edit the line and walk the history (kept between
sessions), Ctrl-R searches it, Ctrl-C stops an answer that is running.
A follow-up with "it", "that" or "they" is taken to mean the previous
question's subject, and chat says how it read it.`

func (a *app) chatCmd() *cobra.Command {
	var f runFlags
	var turns int
	var noHistory bool
	var threadName string
	var confirmWeb bool
	cmd := &cobra.Command{
		Use:   "chat",
		Short: "Ask questions in a conversation, with /sources and /trace",
		Long:  "A multi-turn conversation with your files.\n\n" + chatHelp,
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			var readLine func() (string, error) // the chat's own lines, once open
			if confirmWeb {
				a.confirmWeb = a.askWeb(func() (string, error) { return readLine() })
			}
			opts := f.options()
			opts.ConfirmWeb = confirmWeb
			p, err := a.openPipeline(ctx, opts)
			if err != nil {
				return err
			}
			defer p.Close()
			out := cmd.OutOrStdout()
			a.notify(p.notices...)
			th, err := a.openThread(ctx, threadName)
			if err != nil {
				return err
			}
			defer th.Close()
			history, err := th.history(ctx, turns)
			if err != nil {
				return err
			}
			if len(history) > 0 && !a.quiet {
				fmt.Fprintf(a.io.err, "(thread %s: continuing after %d earlier turn(s))\n", threadName, len(history))
			}
			if !a.quiet {
				fmt.Fprintln(a.io.err, "Type a question, /help for commands, /quit to leave.")
			}
			var (
				last    *nodes.State
				lastLog *traceLog
			)
			lines, err := a.lineReader(noHistory)
			if err != nil {
				return err
			}
			defer lines.Close()
			readLine = lines.Readline
			for {
				raw, err := lines.Readline()
				if errors.Is(err, readline.ErrInterrupt) {
					// Ctrl-C at the prompt clears the line; it never leaves.
					if !a.quiet && strings.TrimSpace(raw) == "" {
						fmt.Fprintln(a.io.err, "(Ctrl-D or /quit leaves)")
					}
					continue
				}
				if errors.Is(err, io.EOF) {
					if !a.quiet {
						fmt.Fprintln(a.io.err)
					}
					return nil
				}
				if err != nil {
					return err
				}
				line := strings.TrimSpace(raw)
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
					if err := th.forget(ctx); err != nil {
						fmt.Fprintln(a.io.err, "error:", err)
						continue
					}
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
				asked := line
				if len(history) > 0 {
					if q, ok := resolveFollowUp(line, history[len(history)-1].Query); ok {
						asked = q
						if !a.quiet {
							fmt.Fprintf(a.io.err, "(taking it as: %s)\n", q)
						}
					}
				}
				// Ctrl-C while the answer runs stops the answer, not chat.
				qctx, cancel := context.WithCancel(ctx)
				restore := a.io.interrupts.takeOver(cancel)
				final, tl, err := a.askState(qctx, p, &f, nodes.State{Query: asked, History: history}, out)
				restore()
				stopped := qctx.Err() != nil && ctx.Err() == nil
				cancel()
				if stopped {
					fmt.Fprintln(a.io.err, "\n(stopped)")
					continue
				}
				if err != nil {
					if ctx.Err() != nil {
						return ctx.Err()
					}
					fmt.Fprintln(a.io.err, "error:", err)
					continue
				}
				last, lastLog = &final, tl
				if err := th.save(ctx, asked, final); err != nil {
					fmt.Fprintln(a.io.err, "error:", err)
				}
				history = append(history, graphrag.Turn{Query: asked, Answer: final.Answer.Text})
				if len(history) > turns {
					history = history[len(history)-turns:]
				}
			}
		},
	}
	f.bind(cmd)
	cmd.Flags().IntVar(&turns, "history", 6, "how many past turns the models see")
	cmd.Flags().BoolVar(&confirmWeb, "confirm-web", false, "ask before a question is sent to the web search (--web); no answers from your files only")
	cmd.Flags().StringVar(&threadName, "thread", "", "keep this conversation under NAME and continue it next time (/reset deletes it)")
	cmd.Flags().BoolVar(&noHistory, "no-history", false, "do not read or write the history of typed lines ("+displayPath(chatHistoryPath(a.getenv))+")")
	return cmd
}

// printSourceTexts prints each cited passage with its text.
func printSourceTexts(out io.Writer, s nodes.State) {
	if len(s.Answer.Citations) == 0 {
		fmt.Fprintln(out, "(the last answer cites no passages)")
		return
	}
	for _, c := range s.Answer.Citations {
		fmt.Fprintf(out, "[%d] %s (score %.3g)\n", c.N, describeSource(c.Hit)+copiesNote(c.Hit), c.Hit.Score)
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
