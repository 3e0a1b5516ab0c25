// Package migrations holds graphrag's PostgreSQL schema as numbered SQL files,
// embedded in the binary and applied by pressly/goose (see
// retrievers/pgvector.Migrate and `graphrag migrate up`).
//
// The files create unqualified objects: the migrator sets search_path to the
// target schema (default "graphrag") followed by public, where the vector
// extension lives. Nothing here runs from a constructor.
package migrations

import "embed"

// FS holds the migration files, named NNNNN_description.sql.
//
//go:embed *.sql
var FS embed.FS
