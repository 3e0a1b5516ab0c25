package main

import (
	"context"
	"fmt"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/graph"
	"github.com/graphrag/graphrag/nodes"
	"github.com/spf13/cobra"
)

func (a *app) vizCmd() *cobra.Command {
	var format, traceQuery string
	cmd := &cobra.Command{
		Use:   "viz",
		Short: "Print the RAG graph as a Mermaid (default) or Graphviz DOT diagram",
		Long: `Print graphrag's RAG graph as nodes/ wires it: five nodes, the edges between
them, and the labelled back-edges with their retry budgets.

With --trace QUESTION it runs the question against your store first and
overlays the path it took: visited nodes highlighted, edges with counts.`,
		Example: `  graphrag viz > graph.mmd
  graphrag viz --format dot | dot -Tsvg > graph.svg
  graphrag viz --trace "how much was invoice INV-2024-0117?"`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if format != "mermaid" && format != "dot" {
				return fmt.Errorf("--format %q: want mermaid or dot", format)
			}
			var (
				g    *graph.Runnable[nodes.State]
				opts []graph.RenderOption
			)
			if traceQuery != "" {
				p, err := a.openPipeline(cmd.Context(), nodes.DefaultOptions())
				if err != nil {
					return err
				}
				defer p.Close()
				tr := graph.NewTrace()
				if _, err := p.graph.Invoke(cmd.Context(), nodes.State{Query: traceQuery}, graph.WithObserver(tr.Observe)); err != nil {
					return fmt.Errorf("run %q: %w", traceQuery, err)
				}
				g, opts = p.graph, []graph.RenderOption{graph.WithTrace(tr)}
			} else {
				var err error
				// The diagram needs only the wiring: a searcher that is never
				// called stands in for the store.
				if g, err = nodes.Build(nodes.Deps{Searcher: noSearcher{}}, nodes.DefaultOptions()); err != nil {
					return err
				}
			}
			out := cmd.OutOrStdout()
			if format == "dot" {
				fmt.Fprint(out, g.DOT(opts...))
			} else {
				fmt.Fprint(out, g.Mermaid(opts...))
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&format, "format", "mermaid", "diagram format: mermaid or dot")
	cmd.Flags().StringVar(&traceQuery, "trace", "", "run this question and overlay the path it took")
	return cmd
}

// noSearcher satisfies nodes.Searcher for drawing the graph.
type noSearcher struct{}

func (noSearcher) Search(context.Context, graphrag.Query) (graphrag.SearchResult, error) {
	return graphrag.SearchResult{}, fmt.Errorf("viz does not search: %w", graphrag.ErrNotConfigured)
}
