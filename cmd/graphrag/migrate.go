package main

import (
	"fmt"
	"text/tabwriter"
	"time"

	"github.com/graphrag/graphrag/retrievers/pgvector"
	"github.com/spf13/cobra"
)

func (a *app) migrateCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "migrate [up|status]",
		Short: "Create or update graphrag's schema in PostgreSQL (the embedded store needs none)",
		Long: `Apply graphrag's SQL migrations to the PostgreSQL database named by --store
(postgres://...). "up" (the default) applies every pending migration and creates
the vector extension when the role may; "status" lists the migrations and
whether each is applied. The embedded SQLite store manages its own schema.`,
		Example: `  graphrag migrate --store postgres://graphrag:graphrag@localhost:5432/graphrag
  graphrag migrate status --store "$GRAPHRAG_STORE"`,
		Args:      cobra.MaximumNArgs(1),
		ValidArgs: []string{"up", "status"},
		RunE: func(cmd *cobra.Command, args []string) error {
			action := "up"
			if len(args) == 1 {
				action = args[0]
			}
			if action != "up" && action != "status" {
				return fmt.Errorf("migrate %q: want up or status", action)
			}
			if !isPostgresURL(a.store) {
				return fmt.Errorf("migrate works on PostgreSQL: pass --store postgres://USER:PASS@HOST:5432/DB (the embedded store at %s needs no migrations)", a.store)
			}
			ctx := cmd.Context()
			pool, err := pgvector.Connect(ctx, a.store, pgvector.Options{Schema: a.schema})
			if err != nil {
				return err
			}
			defer pool.Close()
			out := cmd.OutOrStdout()
			if action == "status" {
				st, err := pgvector.Status(ctx, pool, a.schema)
				if err != nil {
					return err
				}
				tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
				fmt.Fprintln(tw, "VERSION\tMIGRATION\tAPPLIED")
				for _, m := range st {
					applied := "pending"
					if m.Applied {
						applied = m.AppliedAt.Local().Format(time.DateTime)
					}
					fmt.Fprintf(tw, "%d\t%s\t%s\n", m.Version, m.Name, applied)
				}
				return tw.Flush()
			}
			res, err := pgvector.Migrate(ctx, pool, a.schema)
			if err != nil {
				return err
			}
			if len(res) == 0 {
				fmt.Fprintln(out, "schema is up to date")
			}
			for _, r := range res {
				fmt.Fprintf(out, "applied %s (%s)\n", r.Name, r.Duration.Round(time.Millisecond))
			}
			return nil
		},
	}
	return cmd
}
