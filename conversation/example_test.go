package conversation_test

import (
	"context"
	"fmt"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/conversation"
	"github.com/graphrag/graphrag/graph"
)

// A conversation's turns are kept under its name; the next question is
// asked with them as history. Use graph/checkpoint/sqlite or
// graph/checkpoint/postgres for conversations that outlive the process.
func Example() {
	ctx := context.Background()
	threads := conversation.New(graph.NewMemorySaver(), conversation.Options{})

	_ = threads.Append(ctx, "backups", graphrag.Turn{Query: "when does the nightly backup run?", Answer: "At 02:30 [1]."})
	history, _ := threads.History(ctx, "backups")
	for _, t := range history {
		fmt.Printf("%s → %s\n", t.Query, t.Answer)
	}
	// Output: when does the nightly backup run? → At 02:30 [1].
}
