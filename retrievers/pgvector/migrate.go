package pgvector

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/graphrag/graphrag/migrations"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"
)

// MigrationTable is the table, in the target schema, where goose records the
// applied migrations.
const MigrationTable = "graphrag_migrations"

// MigrationStatus is one migration file and whether it is applied.
type MigrationStatus struct {
	Version   int64
	Name      string // file name, e.g. 00001_collections_documents_chunks.sql
	Applied   bool
	AppliedAt time.Time // zero when pending
}

// MigrationResult is one migration Migrate applied.
type MigrationResult struct {
	Version  int64
	Name     string
	Duration time.Duration
}

// Migrate brings schema (Options.Schema semantics: "" means "graphrag") up to
// date: it makes sure the vector extension exists, creates the schema if
// missing, and applies every pending migration of package migrations with
// goose, under a session advisory lock so concurrent runs wait for each
// other. It returns the migrations it applied (none when up to date).
//
// Creating the vector extension needs a superuser (pgvector is not a trusted
// extension). When the role cannot, the error wraps ErrNoVectorExtension and
// says the exact statement a superuser must run.
func Migrate(ctx context.Context, pool *pgxpool.Pool, schema string) ([]MigrationResult, error) {
	p, closeFn, err := provider(ctx, pool, schema, true)
	if err != nil {
		return nil, err
	}
	defer closeFn()
	res, err := p.Up(ctx)
	out := make([]MigrationResult, 0, len(res))
	for _, r := range res {
		if r.Error != nil {
			continue
		}
		out = append(out, MigrationResult{Version: r.Source.Version, Name: baseName(r.Source.Path), Duration: r.Duration})
	}
	if err != nil {
		return out, fmt.Errorf("pgvector: migrate schema %q: %w", schema, err)
	}
	return out, nil
}

// Status lists every migration and whether schema has it. It changes nothing,
// except that goose may create its empty version table.
func Status(ctx context.Context, pool *pgxpool.Pool, schema string) ([]MigrationStatus, error) {
	o, err := Options{Schema: schema}.withDefaults()
	if err != nil {
		return nil, err
	}
	var exists bool
	if err := pool.QueryRow(ctx, `SELECT EXISTS (SELECT FROM pg_namespace WHERE nspname = $1)`, o.Schema).Scan(&exists); err != nil {
		return nil, fmt.Errorf("pgvector: migration status of schema %q: %w", o.Schema, err)
	}
	if !exists { // nothing applied yet; do not create anything
		return embeddedMigrations()
	}
	p, closeFn, err := provider(ctx, pool, schema, false)
	if err != nil {
		return nil, err
	}
	defer closeFn()
	sts, err := p.Status(ctx)
	if err != nil {
		return nil, fmt.Errorf("pgvector: migration status of schema %q: %w", schema, err)
	}
	out := make([]MigrationStatus, 0, len(sts))
	for _, s := range sts {
		out = append(out, MigrationStatus{
			Version: s.Source.Version, Name: baseName(s.Source.Path),
			Applied: s.State == goose.StateApplied, AppliedAt: s.AppliedAt,
		})
	}
	return out, nil
}

// embeddedMigrations lists the migration files shipped in the binary, all
// pending, by version.
func embeddedMigrations() ([]MigrationStatus, error) {
	entries, err := fs.ReadDir(migrations.FS, ".")
	if err != nil {
		return nil, fmt.Errorf("pgvector: list migrations: %w", err)
	}
	var out []MigrationStatus
	for _, e := range entries {
		num, _, ok := strings.Cut(e.Name(), "_")
		if !ok || !strings.HasSuffix(e.Name(), ".sql") {
			continue
		}
		n, err := strconv.ParseInt(num, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("pgvector: migration %q has no numeric version: %w", e.Name(), err)
		}
		out = append(out, MigrationStatus{Version: n, Name: e.Name()})
	}
	slices.SortFunc(out, func(a, b MigrationStatus) int { return cmp.Compare(a.Version, b.Version) })
	return out, nil
}

// latestVersion is the newest migration version shipped in the binary.
func latestVersion() (int64, error) {
	ms, err := embeddedMigrations()
	if err != nil || len(ms) == 0 {
		return 0, err
	}
	return ms[len(ms)-1].Version, nil
}

func baseName(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[i+1:]
	}
	return p
}

func provider(ctx context.Context, pool *pgxpool.Pool, schema string, up bool) (*goose.Provider, func(), error) {
	o, err := Options{Schema: schema}.withDefaults()
	if err != nil {
		return nil, nil, err
	}
	schema = o.Schema
	if up {
		if err := ensureVector(ctx, pool); err != nil {
			return nil, nil, err
		}
		if _, err := pool.Exec(ctx, "CREATE SCHEMA IF NOT EXISTS "+pgx.Identifier{schema}.Sanitize()); err != nil {
			return nil, nil, fmt.Errorf("pgvector: create schema %q: %w (the role needs CREATE on the database, or create the schema as its owner)", schema, err)
		}
	}
	// The migrations create unqualified objects: run them on connections
	// whose search_path is the schema (then public, for the vector type).
	cc := pool.Config().ConnConfig.Copy()
	cc.RuntimeParams["search_path"] = pgx.Identifier{schema}.Sanitize() + ", public"
	cc.RuntimeParams["statement_timeout"] = "0" // index builds may be long
	db := stdlib.OpenDB(*cc)
	h := fnv.New64a()
	h.Write([]byte("graphrag-migrate:" + schema))
	locker, err := lock.NewPostgresSessionLocker(lock.WithLockID(int64(h.Sum64()>>1)), lock.WithLockTimeout(1, 600))
	if err != nil {
		db.Close()
		return nil, nil, err
	}
	p, err := goose.NewProvider(goose.DialectPostgres, db, migrations.FS,
		goose.WithTableName(schema+"."+MigrationTable),
		goose.WithSessionLocker(locker),
		goose.WithDisableGlobalRegistry(true),
	)
	if err != nil {
		db.Close()
		return nil, nil, fmt.Errorf("pgvector: load migrations: %w", err)
	}
	return p, func() { db.Close() }, nil
}

// ensureVector creates the vector extension when it is missing, and explains
// what a superuser must run when the role cannot.
func ensureVector(ctx context.Context, pool *pgxpool.Pool) error {
	var have bool
	var db, role string
	err := pool.QueryRow(ctx, `SELECT EXISTS (SELECT FROM pg_extension WHERE extname = 'vector'), current_database(), current_user`).Scan(&have, &db, &role)
	if err != nil {
		return fmt.Errorf("pgvector: check vector extension: %w", err)
	}
	if have {
		return nil
	}
	_, err = pool.Exec(ctx, `CREATE EXTENSION IF NOT EXISTS vector`)
	if err == nil {
		pool.Reset() // reconnect so AfterConnect registers the vector types
		return nil
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		switch pgErr.Code {
		case "42501": // insufficient_privilege
			return fmt.Errorf("%w: role %q cannot create the vector extension in database %q; as a superuser run:\n  psql -d %s -c 'CREATE EXTENSION IF NOT EXISTS vector;'\nthen run `graphrag migrate up` again (%v)",
				ErrNoVectorExtension, role, db, db, pgErr.Message)
		case "58P01", "0A000": // undefined_file / feature_not_supported: not installed on the server
			return fmt.Errorf("%w: pgvector is not installed on the PostgreSQL server (%s); install it (Debian/Ubuntu: apt install postgresql-<version>-pgvector, or run scripts/db-up.sh as root; Docker: image pgvector/pgvector:pg17) and then, as a superuser, run:\n  psql -d %s -c 'CREATE EXTENSION IF NOT EXISTS vector;'",
				ErrNoVectorExtension, pgErr.Message, db)
		}
	}
	return fmt.Errorf("%w: CREATE EXTENSION vector in database %q: %v", ErrNoVectorExtension, db, err)
}
