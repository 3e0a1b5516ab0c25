package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// metaPrefix keeps a program's keys apart from the store's own ("embedder",
// "dimension") in the meta table.
const metaPrefix = "app."

// Meta returns the value a program stored under key with SetMeta, "" when
// there is none.
func (s *Store) Meta(ctx context.Context, key string) (string, error) {
	var v string
	err := s.db.QueryRowContext(ctx, "SELECT value FROM meta WHERE key = ?", metaPrefix+key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("sqlite meta %q: %w", key, err)
	}
	return v, nil
}

// SetMeta stores value under key, beside the documents and written as
// atomically; an empty value removes the key.
func (s *Store) SetMeta(ctx context.Context, key, value string) error {
	if key == "" {
		return errors.New("sqlite set meta: empty key")
	}
	s.wmu.Lock()
	defer s.wmu.Unlock()
	var err error
	if value == "" {
		_, err = s.db.ExecContext(ctx, "DELETE FROM meta WHERE key = ?", metaPrefix+key)
	} else {
		_, err = s.db.ExecContext(ctx, "INSERT INTO meta(key, value) VALUES(?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", metaPrefix+key, value)
	}
	if err != nil {
		return fmt.Errorf("sqlite set meta %q: %w", key, err)
	}
	return nil
}

// ChunkCounts returns the number of chunks of every stored document, by
// document id.
func (s *Store) ChunkCounts(ctx context.Context) (map[string]int, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT d.id, count(c.rowid) FROM documents d LEFT JOIN chunks c ON c.doc_id = d.id GROUP BY d.id")
	if err != nil {
		return nil, fmt.Errorf("sqlite chunk counts: %w", err)
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var id string
		var n int
		if err := rows.Scan(&id, &n); err != nil {
			return nil, fmt.Errorf("sqlite chunk counts: %w", err)
		}
		out[id] = n
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite chunk counts: %w", err)
	}
	return out, nil
}
