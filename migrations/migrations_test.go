package migrations

import (
	"fmt"
	"io/fs"
	"regexp"
	"strings"
	"testing"
)

// TestFiles checks the embedded migrations: numbered from 1 without gaps,
// named NNNNN_snake_case.sql, each with an Up and a Down section, and no
// schema-qualified graphrag objects (the migrator picks the schema through
// search_path).
func TestFiles(t *testing.T) {
	entries, err := fs.ReadDir(FS, ".")
	if err != nil {
		t.Fatal(err)
	}
	name := regexp.MustCompile(`^(\d{5})_[a-z0-9_]+\.sql$`)
	want := 1
	for _, e := range entries {
		t.Run(e.Name(), func(t *testing.T) {
			m := name.FindStringSubmatch(e.Name())
			if m == nil {
				t.Fatalf("name %q: want NNNNN_snake_case.sql", e.Name())
			}
			if m[1] != fmt.Sprintf("%05d", want) {
				t.Errorf("version %s, want %05d (no gaps)", m[1], want)
			}
			b, err := fs.ReadFile(FS, e.Name())
			if err != nil {
				t.Fatal(err)
			}
			sql := string(b)
			up, down := strings.Index(sql, "-- +goose Up"), strings.Index(sql, "-- +goose Down")
			if up < 0 || down < up {
				t.Errorf("want a '-- +goose Up' section followed by '-- +goose Down'")
			}
			if strings.Count(sql, "+goose StatementBegin") != strings.Count(sql, "+goose StatementEnd") {
				t.Errorf("unbalanced StatementBegin/StatementEnd")
			}
			if regexp.MustCompile(`(?i)\bgraphrag\.(collections|documents|chunks)\b`).MatchString(sql) {
				t.Errorf("schema-qualified table: the migrator sets search_path instead")
			}
		})
		want++
	}
	if want == 1 {
		t.Fatal("no migrations embedded")
	}
}
