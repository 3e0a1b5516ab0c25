//go:build ignore

// derive.go writes train.jsonl.gz, the compact copy of the public training
// data the router learns from, from the files in graphrag's shared
// routerdata directory (CLINC150 and NL2Bash, see README.md):
//
//	go run derive.go -src ../../../shared/routerdata
//
// Each output line is {"q": text, "intent": label, "source": name}. CLINC150
// rows keep their intent; NL2Bash rows are labelled nl2bash-readonly when
// their command only reads the file tree and nl2bash-action when it changes
// something; the rest (text processing, networking) are left out.
package main

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

type row struct {
	Q      string `json:"q"`
	Intent string `json:"intent"`
	Source string `json:"source"`
}

var (
	// readers are the commands of a read-only question about files.
	readers = regexp.MustCompile(`^\s*(sudo\s+)?(find|ls|du|wc|stat|tree|locate|file|df)\b`)
	// writers make a command an action: deleting, moving, copying,
	// changing permissions or contents, redirecting output into a file.
	// runs finds what -exec, -execdir, -ok and xargs run.
	runs = regexp.MustCompile(`(?:-exec(?:dir)?|-ok|xargs(?:\s+-\S+(?:\s+\d+)?)*)\s+(?:sudo\s+)?([\w./-]+)`)
	// lookers are what a read-only command may run on each file.
	lookers = map[string]bool{"ls": true, "wc": true, "du": true, "stat": true, "file": true, "grep": true, "egrep": true, "fgrep": true,
		"cat": true, "head": true, "tail": true, "echo": true, "printf": true, "basename": true, "dirname": true, "readlink": true,
		"md5sum": true, "sha1sum": true, "sha256sum": true, "sort": true, "less": true, "more": true}
	writers = regexp.MustCompile(`(^|[\s|;&(])(rm|rmdir|mv|cp|chmod|chown|chgrp|touch|mkdir|ln|tar|gzip|gunzip|zip|unzip|bzip2|xz|rename|truncate|dd|rsync|scp|kill|pkill|killall|shred|install|patch|tee|split|mount|umount|cpio)\b|-delete\b|sed\s+-i|perl\s+-[a-z]*i|\s>{1,2}\s*[^&]`)
)

func main() {
	src := flag.String("src", "../../../shared/routerdata", "the shared routerdata directory")
	out := flag.String("o", "train.jsonl.gz", "output file")
	flag.Parse()
	var rows []row
	if err := scan(filepath.Join(*src, "clinc150.train.jsonl"), func(m map[string]string) {
		rows = append(rows, row{strings.TrimSpace(m["query"]), m["intent"], "clinc150"})
	}); err != nil {
		fail(err)
	}
	if err := scan(filepath.Join(*src, "nl2bash.train.jsonl"), func(m map[string]string) {
		cmd, d := m["command"], strings.TrimSpace(m["description"])
		switch {
		case writers.MatchString(cmd) || runsOther(cmd):
			rows = append(rows, row{d, "nl2bash-action", "nl2bash"})
		case readers.MatchString(cmd):
			rows = append(rows, row{d, "nl2bash-readonly", "nl2bash"})
		}
	}); err != nil {
		fail(err)
	}
	f, err := os.Create(*out)
	if err != nil {
		fail(err)
	}
	zw, _ := gzip.NewWriterLevel(f, gzip.BestCompression)
	enc := json.NewEncoder(zw)
	for _, r := range rows {
		if err := enc.Encode(r); err != nil {
			fail(err)
		}
	}
	if err := zw.Close(); err != nil {
		fail(err)
	}
	if err := f.Close(); err != nil {
		fail(err)
	}
	fmt.Fprintf(os.Stderr, "wrote %d rows to %s\n", len(rows), *out)
}

// runsOther reports whether a command runs a program other than a reader
// on the files it finds (a script, a converter): an action.
func runsOther(cmd string) bool {
	for _, m := range runs.FindAllStringSubmatch(cmd, -1) {
		if !lookers[filepath.Base(m[1])] {
			return true
		}
	}
	return false
}

func scan(path string, fn func(map[string]string)) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var m map[string]string
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		fn(m)
	}
	return sc.Err()
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "derive:", err)
	os.Exit(1)
}
