package postgres

import (
	"context"
	"fmt"
)

// Threads returns the names of the threads that have checkpoints and start
// with prefix ("" for all), sorted. It lets a caller list its
// conversations or runs; it is not part of graph.CheckpointStore.
func (s *Saver) Threads(ctx context.Context, prefix string) ([]string, error) {
	rows, err := s.db.Query(ctx, `
SELECT DISTINCT thread FROM graph_checkpoints
WHERE left(thread, length($1::text)) = $1::text ORDER BY thread`, simple, prefix)
	if err != nil {
		return nil, fmt.Errorf("postgres checkpointer: list threads: %w", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var t string
		if err := rows.Scan(&t); err != nil {
			return nil, fmt.Errorf("postgres checkpointer: list threads: %w", err)
		}
		out = append(out, t)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres checkpointer: list threads: %w", err)
	}
	return out, nil
}
