package sqlite

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// ErrCorrupt: the store file is damaged (flipped bytes, a torn copy, a
// failing disk). The files it was built from are the source: rebuild it by
// ingesting them into a new store.
var ErrCorrupt = errors.New("store file is damaged")

// maxProblems bounds the problems Check quotes from quick_check.
const maxProblems = 5

// Check verifies the file: SQLite's quick_check (page structure, records,
// index entries; linear in the file's size, unlike integrity_check) and
// FTS5's integrity check of the keyword index against the stored text. A
// damaged store is an error matching ErrCorrupt that quotes what SQLite
// found. A read-only store skips the FTS5 check, which SQLite runs as a
// write statement.
func (s *Store) Check(ctx context.Context) error {
	rows, err := s.db.QueryContext(ctx, "PRAGMA quick_check")
	if err != nil {
		return s.checkErr("quick_check", err)
	}
	var problems []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			rows.Close()
			return s.checkErr("quick_check", err)
		}
		if line != "ok" && len(problems) < maxProblems {
			problems = append(problems, line)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return s.checkErr("quick_check", err)
	}
	if len(problems) > 0 {
		return fmt.Errorf("%w: %s: quick_check: %s", ErrCorrupt, s.path, strings.Join(problems, "; "))
	}
	if s.readOnly {
		return nil
	}
	if _, err := s.db.ExecContext(ctx, "INSERT INTO chunks_fts(chunks_fts) VALUES('integrity-check')"); err != nil {
		return s.checkErr("the keyword index's integrity check", err)
	}
	return nil
}

// checkErr reports a check that could not run: SQLite's own words for a
// damaged file make it ErrCorrupt.
func (s *Store) checkErr(what string, err error) error {
	msg := err.Error()
	if strings.Contains(msg, "malformed") || strings.Contains(msg, "not a database") || strings.Contains(msg, "corrupt") {
		return fmt.Errorf("%w: %s: %s: %v", ErrCorrupt, s.path, what, err)
	}
	return fmt.Errorf("sqlite check %s: %s: %w", s.path, what, err)
}
