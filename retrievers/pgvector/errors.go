package pgvector

import "errors"

var (
	// ErrNotMigrated: the schema has no graphrag tables, or an older version
	// of them. Run `graphrag migrate up` (Migrate).
	ErrNotMigrated = errors.New("database schema is not migrated")
	// ErrNoVectorExtension: the vector extension is missing and the role
	// cannot create it; a superuser must.
	ErrNoVectorExtension = errors.New("pgvector extension is not available")
	// ErrInvalidOptions: an Options value that cannot be used.
	ErrInvalidOptions = errors.New("invalid options")
	// ErrInvalidRecord: a record Put cannot store.
	ErrInvalidRecord = errors.New("invalid record")
)
