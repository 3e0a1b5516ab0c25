package pgvector

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// Meta returns the value a program stored under key with SetMeta for the
// store's collection, "" when there is none.
func (s *Store) Meta(ctx context.Context, key string) (string, error) {
	var v string
	err := s.pool.QueryRow(ctx, `SELECT value FROM collection_meta WHERE collection = $1 AND key = $2`, s.opts.Collection, key).Scan(&v)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", s.wrap(ctx, fmt.Sprintf("read meta %q", key), err)
	}
	return v, nil
}

// SetMeta stores value under key for the store's collection; an empty value
// removes the key. It takes the collection's write lock, so it is ordered
// with Puts and Deletes of other processes.
func (s *Store) SetMeta(ctx context.Context, key, value string) error {
	if key == "" {
		return errors.New("pgvector: set meta: empty key")
	}
	return s.inTx(ctx, fmt.Sprintf("set meta %q", key), func(tx pgx.Tx) error {
		if err := s.lock(ctx, tx); err != nil {
			return err
		}
		if value == "" {
			_, err := tx.Exec(ctx, `DELETE FROM collection_meta WHERE collection = $1 AND key = $2`, s.opts.Collection, key)
			return err
		}
		_, err := tx.Exec(ctx, `
			INSERT INTO collection_meta (collection, key, value) VALUES ($1, $2, $3)
			ON CONFLICT (collection, key) DO UPDATE SET value = excluded.value, updated_at = now()`,
			s.opts.Collection, key, value)
		return err
	})
}

// ChunkCounts returns the number of chunks of every document of the
// collection, by document id.
func (s *Store) ChunkCounts(ctx context.Context) (map[string]int, error) {
	c, found, err := s.collection(ctx)
	if err != nil || !found {
		return map[string]int{}, err
	}
	rows, err := s.pool.Query(ctx, `
		SELECT d.id, (SELECT count(*) FROM chunks k WHERE k.collection_id = d.collection_id AND k.doc_id = d.id)
		FROM documents d WHERE d.collection_id = $1`, c.id)
	if err != nil {
		return nil, s.wrap(ctx, "count chunks", err)
	}
	out := map[string]int{}
	var id string
	var n int
	_, err = pgx.ForEachRow(rows, []any{&id, &n}, func() error {
		out[id] = n
		return nil
	})
	if err != nil {
		return nil, s.wrap(ctx, "count chunks", err)
	}
	return out, nil
}
