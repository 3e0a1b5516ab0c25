package main

import (
	"fmt"
	"log/slog"
	"strconv"
	"strings"

	"github.com/graphrag/graphrag/nodes"
	"github.com/spf13/cobra"
)

// atLeast is an int flag that refuses values below min when it is parsed,
// so `--k 0` fails with a clear message before anything runs.
type atLeast struct {
	dst  *int
	min  int
	what string // what the number counts, for the error
}

func newAtLeast(dst *int, def, min int, what string) *atLeast {
	*dst = def
	return &atLeast{dst: dst, min: min, what: what}
}

func (v *atLeast) String() string {
	if v.dst == nil {
		return "0"
	}
	return strconv.Itoa(*v.dst)
}

func (v *atLeast) Set(s string) error {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return fmt.Errorf("want a whole number: %s, %d or more", v.what, v.min)
	}
	if n < v.min {
		return fmt.Errorf("want %s, %d or more", v.what, v.min)
	}
	*v.dst = n
	return nil
}

func (v *atLeast) Type() string { return "int" }

// dashHint is added to a flag error of the commands that take a question:
// a question that starts with "-" looks like a flag to the parser.
const dashHint = `a question or query that starts with "-" goes after --, e.g. graphrag run -- "-race: what does it do?"`

// flagError makes a flag parsing error say what to do next.
func flagError(cmd *cobra.Command, err error) error {
	msg := err.Error()
	if strings.HasPrefix(msg, "unknown shorthand flag") || strings.HasPrefix(msg, "unknown flag") {
		switch cmd.Name() {
		case "run", "search":
			return fmt.Errorf("%w\n%s", err, dashHint)
		}
		return fmt.Errorf("%w (see `graphrag %s --help`)", err, cmd.Name())
	}
	return err
}

// bindServe binds the run flags that apply to a server: how much to
// retrieve and the loop budgets. --trace and --json are per request there.
func (f *runFlags) bindServe(cmd *cobra.Command) {
	def := nodes.DefaultOptions()
	cmd.Flags().Var(newAtLeast(&f.k, def.K, 1, "how many passages to retrieve"), "k", "how many passages to retrieve")
	cmd.Flags().IntVar(&f.retries, "retries", def.Budget.Retrieve, "retry budget of each loop (refine the query, rewrite the answer, route again)")
	cmd.Flags().IntVar(&f.maxSteps, "max-steps", def.MaxSteps, "stop a run after this many steps")
}

// logLevel is what serve logs: warnings and errors only with --quiet.
func (a *app) logLevel() slog.Level {
	if a.quiet {
		return slog.LevelWarn
	}
	return slog.LevelInfo
}
