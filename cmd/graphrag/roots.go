package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// The filesystem tools see exactly the paths the user ingested: the files
// and directories given to `graphrag ingest` (or POST /v1/ingest) are
// recorded in a small file kept with the store, and a directory is opened
// to the tools only when it was given itself. Ingesting ~/notes.txt lets
// the tools see that file, not the rest of ~.

// ingestedPathsFile is where the paths given to ingest are recorded: beside
// a SQLite store (graphrag.db → graphrag.db.ingested.json), or in the data
// directory for PostgreSQL, named for the server, database, schema and
// collection (never the password).
func (a *app) ingestedPathsFile() string {
	if !isPostgresURL(a.store) {
		return a.store + ".ingested.json"
	}
	key := a.store
	if u, err := url.Parse(a.store); err == nil {
		u.User = url.User(u.User.Username())
		u.RawQuery = ""
		key = u.String()
	}
	sum := sha256.Sum256([]byte(key + "\x00" + a.schema + "\x00" + a.collection))
	return filepath.Join(dataDir(a.getenv), "ingested-"+hex.EncodeToString(sum[:8])+".json")
}

type ingestedPaths struct {
	Paths []string `json:"paths"`
}

// readIngestedPaths returns the recorded paths; none when nothing was
// recorded yet.
func readIngestedPaths(file string) ([]string, error) {
	b, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read the ingested paths: %w", err)
	}
	var ip ingestedPaths
	if err := json.Unmarshal(b, &ip); err != nil {
		return nil, fmt.Errorf("read the ingested paths from %s: %w (delete it and ingest again)", file, err)
	}
	return ip.Paths, nil
}

// recordIngestedPaths adds paths (made absolute) to the record, written
// whole to a temporary file and renamed, readable by the user alone.
func recordIngestedPaths(file string, paths []string) error {
	have, err := readIngestedPaths(file)
	if err != nil {
		return err
	}
	for _, p := range paths {
		abs, err := filepath.Abs(p)
		if err != nil {
			return fmt.Errorf("record ingested path %q: %w", p, err)
		}
		if !slices.Contains(have, abs) {
			have = append(have, abs)
		}
	}
	sort.Strings(have)
	b, err := json.MarshalIndent(ingestedPaths{Paths: have}, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return fmt.Errorf("record ingested paths: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(file), ".ingested-*.json")
	if err != nil {
		return fmt.Errorf("record ingested paths: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(append(b, '\n')); err != nil {
		tmp.Close()
		return fmt.Errorf("record ingested paths: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("record ingested paths: %w", err)
	}
	if err := os.Rename(tmp.Name(), file); err != nil {
		return fmt.Errorf("record ingested paths: %w", err)
	}
	return nil
}

// toolRoots are the paths the filesystem tools may see: the recorded
// ingest paths that still exist, and each stored file that no recorded
// path covers (a store ingested before paths were recorded) as that file
// alone. files are the paths of the store's documents that are files of
// the user's.
func toolRoots(recorded, files []string) []string {
	var roots []string
	for _, p := range recorded {
		if _, err := os.Stat(p); err == nil {
			roots = append(roots, p)
		}
	}
	covered := func(f string) bool {
		return slices.ContainsFunc(roots, func(r string) bool { return within(r, f) })
	}
	var loose []string
	for _, f := range files {
		if fi, err := os.Stat(f); err == nil && fi.Mode().IsRegular() && !covered(f) {
			loose = append(loose, f)
		}
	}
	sort.Strings(loose)
	return append(roots, slices.Compact(loose)...)
}

// isCorpusPath reports whether a document path is a JSONL corpus (rows,
// not files of the user's).
func isCorpusPath(p string) bool {
	l := strings.ToLower(p)
	return strings.HasSuffix(l, ".jsonl") || strings.HasSuffix(l, ".jsonl.gz")
}
