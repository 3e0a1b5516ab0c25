package sqlite

import (
	"context"
	"fmt"
)

// Threads returns the names of the threads that have checkpoints and start
// with prefix ("" for all), sorted. It lets a caller list its
// conversations or runs; it is not part of graph.CheckpointStore.
func (s *Saver) Threads(ctx context.Context, prefix string) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, `
SELECT DISTINCT thread FROM graph_checkpoints
WHERE substr(thread, 1, length(?1)) = ?1 ORDER BY thread`, prefix)
	if err != nil {
		return nil, fmt.Errorf("sqlite checkpointer: list threads: %w", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var t string
		if err := rows.Scan(&t); err != nil {
			return nil, fmt.Errorf("sqlite checkpointer: list threads: %w", err)
		}
		out = append(out, t)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite checkpointer: list threads: %w", err)
	}
	return out, nil
}
