// Package pgtest gives graphrag's tests a real PostgreSQL with pgvector, and an
// isolated schema per test that is dropped when the test ends.
//
// Tests read the database URL from GRAPHRAG_TEST_DATABASE_URL (scripts/db-up.sh
// prints one). When it is unset the test is skipped with a message saying how to
// get a database, except when GRAPHRAG_REQUIRE_DB=1 (as in CI): then the test
// fails, so a database test can never silently skip where it must run.
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	pgxvec "github.com/pgvector/pgvector-go/pgx"
)

// Environment variables the helpers read.
const (
	EnvURL     = "GRAPHRAG_TEST_DATABASE_URL"
	EnvRequire = "GRAPHRAG_REQUIRE_DB"
)

// Required reports whether database tests must run (GRAPHRAG_REQUIRE_DB=1).
func Required() bool { return os.Getenv(EnvRequire) == "1" }

// URL returns the test database URL. Without one it skips the test, or fails it
// when GRAPHRAG_REQUIRE_DB=1. A URL that is set but cannot be reached fails the
// test, so callers can assume a live database.
func URL(tb testing.TB) string {
	tb.Helper()
	url := os.Getenv(EnvURL)
	if url == "" {
		unavailable(tb, EnvURL+" is not set; run `sudo scripts/db-up.sh` (or `docker compose up -d db`) and export the URL it prints")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		// A URL that is set but wrong is a misconfiguration, never a reason to skip.
		tb.Fatalf("cannot connect to %s=%s: %v (run `sudo scripts/db-up.sh` and export the URL it prints)", EnvURL, redact(url), err)
	}
	_ = conn.Close(ctx)
	return url
}

func unavailable(tb testing.TB, msg string) {
	tb.Helper()
	if Required() {
		tb.Fatalf("%s (%s=1: database tests must run)", msg, EnvRequire)
	}
	tb.Skip("skipping PostgreSQL test: " + msg)
}

// redact hides the password in a URL for messages.
func redact(url string) string {
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		return "<unparseable URL>"
	}
	return fmt.Sprintf("postgres://%s:***@%s:%d/%s", cfg.User, cfg.Host, cfg.Port, cfg.Database)
}

// NewSchema creates an empty schema with a random name, drops it (CASCADE) when
// the test ends, and returns its name.
func NewSchema(tb testing.TB, url string) string {
	tb.Helper()
	var b [6]byte
	if _, err := rand.Read(b[:]); err != nil {
		tb.Fatal(err)
	}
	name := "graphrag_test_" + hex.EncodeToString(b[:])
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		tb.Fatalf("connect: %v", err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "CREATE SCHEMA "+pgx.Identifier{name}.Sanitize()); err != nil {
		tb.Fatalf("create schema %s: %v", name, err)
	}
	tb.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		conn, err := pgx.Connect(ctx, url)
		if err != nil {
			tb.Errorf("drop schema %s: %v", name, err)
			return
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, "DROP SCHEMA IF EXISTS "+pgx.Identifier{name}.Sanitize()+" CASCADE"); err != nil {
			tb.Errorf("drop schema %s: %v", name, err)
		}
	})
	return name
}

// Pool opens a pool on url whose connections have pgvector's types registered
// and search_path set to schema (then public, where the vector extension lives).
// The pool is closed when the test ends.
func Pool(tb testing.TB, url, schema string) *pgxpool.Pool {
	tb.Helper()
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		tb.Fatalf("parse %s: %v", EnvURL, err)
	}
	if schema != "" {
		cfg.ConnConfig.RuntimeParams["search_path"] = pgx.Identifier{schema}.Sanitize() + ", public"
	}
	cfg.AfterConnect = func(ctx context.Context, conn *pgx.Conn) error {
		return pgxvec.RegisterTypes(ctx, conn)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		tb.Fatalf("open pool: %v", err)
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		tb.Fatalf("ping: %v", err)
	}
	tb.Cleanup(pool.Close)
	return pool
}
