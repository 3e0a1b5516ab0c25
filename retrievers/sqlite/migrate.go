package sqlite

import (
	"context"
	"database/sql"
	"strconv"
)

// chunkPlaceColumns say where a chunk sits in its document (see
// graphrag.Chunk): its heading path or declaration, the symbol it declares,
// its kind and its 1-based line range, 0 when unknown.
const chunkPlaceColumns = `heading    TEXT NOT NULL DEFAULT '',
	symbol     TEXT NOT NULL DEFAULT '',
	kind       TEXT NOT NULL DEFAULT '',
	start_line INTEGER NOT NULL DEFAULT 0,
	end_line   INTEGER NOT NULL DEFAULT 0`

// upgrades[v] takes a store from schema version v to v+1, in the caller's
// transaction. An upgrade only adds: what a store holds is never rewritten.
var upgrades = map[int][]string{
	// Version 2: a chunk's heading, symbol, kind and line range. Chunks
	// stored before have none ('' and 0, "unknown") until their document
	// is ingested again.
	1: {
		"ALTER TABLE chunks ADD COLUMN heading TEXT NOT NULL DEFAULT ''",
		"ALTER TABLE chunks ADD COLUMN symbol TEXT NOT NULL DEFAULT ''",
		"ALTER TABLE chunks ADD COLUMN kind TEXT NOT NULL DEFAULT ''",
		"ALTER TABLE chunks ADD COLUMN start_line INTEGER NOT NULL DEFAULT 0",
		"ALTER TABLE chunks ADD COLUMN end_line INTEGER NOT NULL DEFAULT 0",
	},
}

// migrate upgrades a store written at schema version from to schemaVersion.
func migrate(ctx context.Context, tx *sql.Tx, from int) error {
	for v := from; v < schemaVersion; v++ {
		for _, stmt := range upgrades[v] {
			if _, err := tx.ExecContext(ctx, stmt); err != nil {
				return err
			}
		}
	}
	_, err := tx.ExecContext(ctx, "PRAGMA user_version = "+strconv.Itoa(schemaVersion))
	return err
}
