package main

import "github.com/spf13/cobra"

// commands lists graphrag's subcommands in the order help shows them.
func (a *app) commands() []*cobra.Command {
	return []*cobra.Command{
		a.ingestCmd(),
		a.runCmd(),
		a.searchCmd(),
		a.sourcesCmd(),
		a.forgetCmd(),
		a.watchCmd(),
		a.chatCmd(),
		a.threadsCmd(),
		a.serveCmd(),
		a.evalCmd(),
		a.vizCmd(),
		a.migrateCmd(),
		a.doctorCmd(),
	}
}
