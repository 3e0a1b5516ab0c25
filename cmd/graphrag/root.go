package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"
)

// version is set at build time with -ldflags "-X main.version=..."; without
// it, buildVersion reads the module's build information.
var version = "dev"

// stdio is where a command reads and writes; tests pass buffers.
type stdio struct {
	in       io.Reader
	out, err io.Writer
	// env lists the environment's NAME=value pairs, only to warn of
	// misspelt GRAPHRAG_* names; settings are read through getenv.
	env []string
	// interrupts lets chat take Ctrl-C over; nil where there is no terminal
	// to press it in (tests).
	interrupts *interrupts
}

// exitError carries a process exit code through cobra.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// Run executes graphrag with args and returns the process exit code. getenv
// is the only way configuration enters from the environment.
func Run(ctx context.Context, args []string, io stdio, getenv func(string) string) int {
	a := &app{io: io, getenv: getenv}
	root := a.rootCmd()
	root.SetArgs(args)
	root.SetIn(io.in)
	root.SetOut(io.out)
	root.SetErr(io.err)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return 0
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil && ee.code != 0 && ee.err.Error() != "" {
			fmt.Fprintln(io.err, "graphrag:", ee.err)
		}
		return ee.code
	}
	if errors.Is(err, context.Canceled) {
		fmt.Fprintln(io.err, "graphrag: interrupted")
		return 130
	}
	fmt.Fprintln(io.err, "graphrag:", err)
	return 1
}

func (a *app) rootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:   "graphrag",
		Short: "Answers from your own files with local models: agentic RAG on a typed graph engine",
		Long: `graphrag ingests your files and answers questions about them, locally.

Each question runs through a graph of five nodes: route → retrieve → evaluate →
generate → validate, with loops back when retrieval is poor or an answer is not
supported by your files. It works with no language model at all (extractive
answers with citations) and gets better with Ollama or an OpenAI-compatible
server such as llama.cpp's llama-server.

Quick start:
  graphrag ingest ~/notes
  graphrag run "what did I decide about the backup plan?"`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       buildVersion(),
	}
	root.SetVersionTemplate("graphrag {{.Version}}\n")
	root.SetFlagErrorFunc(flagError)
	a.bindGlobalFlags(root)
	root.AddCommand(a.versionCmd())
	root.AddCommand(a.commands()...)
	return root
}

func (a *app) versionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print graphrag's version",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			fmt.Fprintf(cmd.OutOrStdout(), "graphrag %s\n", buildVersion())
			return nil
		},
	}
}
