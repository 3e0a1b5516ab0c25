package nodes

import (
	"context"
	"fmt"
	"unicode"
	"unicode/utf8"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/graph"
)

// Limits on what one question may hold. A question is routed, tokenised
// and matched against the rules before anything else; past these sizes it
// is not a question but a document, and the work it costs grows with it.
const (
	// MaxQueryBytes is about 4,000 tokens: the whole context window of the
	// small local models graphrag defaults to, so a longer question could
	// not reach the writer's prompt anyway. Long text belongs in a file
	// that is ingested.
	MaxQueryBytes = 16 << 10
	// MaxQueryWords is four pages of prose; it also stops a query of many
	// short "words" (120,000 in 849 KB were seen) from costing per word
	// what MaxQueryBytes allows per byte.
	MaxQueryWords = 2000
)

// CheckQuery reports whether query, and the questions of the history
// turns (a follow-up is routed with the question before it), are within
// MaxQueryBytes and MaxQueryWords. The error matches
// graphrag.ErrInvalidQuery and says what to do. Its cost is linear and
// stops at the first byte past a limit.
//
// The graph runs it before routing; servers call it first too so that an
// oversized request is refused before it waits for a worker.
func CheckQuery(query string, history []graphrag.Turn) error {
	if err := checkText("the question", query); err != nil {
		return err
	}
	for i, t := range history {
		if err := checkText(fmt.Sprintf("history turn %d's question", i+1), t.Query); err != nil {
			return err
		}
	}
	return nil
}

func checkText(what, text string) error {
	if len(text) > MaxQueryBytes {
		return fmt.Errorf("%w: %s is %d bytes, more than the %d graphrag takes: ask a shorter question (to search long text, save it to a file and ingest it)",
			graphrag.ErrInvalidQuery, what, len(text), MaxQueryBytes)
	}
	if n := countWords(text, MaxQueryWords+1); n > MaxQueryWords {
		return fmt.Errorf("%w: %s has more than %d words: ask a shorter question (to search long text, save it to a file and ingest it)",
			graphrag.ErrInvalidQuery, what, MaxQueryWords)
	}
	return nil
}

// countWords counts runs of non-space runes in s, stopping at limit.
func countWords(s string, limit int) int {
	n, inWord := 0, false
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if unicode.IsSpace(r) {
			inWord = false
			continue
		}
		if !inWord {
			inWord = true
			if n++; n >= limit {
				return n
			}
		}
	}
	return n
}

// checked runs CheckQuery before the entry node, so that every caller of
// the graph (CLI, server, evals, library users) gets the same limits.
func checked(fn graph.NodeFunc[State]) graph.NodeFunc[State] {
	return func(ctx context.Context, s State) (State, error) {
		if !s.started {
			if err := CheckQuery(s.Query, s.History); err != nil {
				return s, err
			}
		}
		return fn(ctx, s)
	}
}

// cancellable makes a node honour cancellation: a node that returns after
// its context was cancelled (a client went away, a deadline passed while
// it worked without asking a model) fails with the context's cause instead
// of letting the run go on to an edge, or to END as if it had answered.
func cancellable(fn graph.NodeFunc[State]) graph.NodeFunc[State] {
	return func(ctx context.Context, s State) (State, error) {
		if err := ctx.Err(); err != nil {
			return s, context.Cause(ctx)
		}
		out, err := fn(ctx, s)
		if err == nil && ctx.Err() != nil {
			return out, context.Cause(ctx)
		}
		return out, err
	}
}
