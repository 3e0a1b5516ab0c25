package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/graphrag/graphrag/ingest"
)

func TestVersionFromBuildInfo(t *testing.T) {
	for _, tc := range []struct {
		bi   debug.BuildInfo
		want string
	}{
		{debug.BuildInfo{Main: debug.Module{Version: "v0.4.1"}}, "v0.4.1"},
		{debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "0123456789abcdef"}, {Key: "vcs.modified", Value: "true"}}}, "dev (0123456789ab, modified)"},
		{debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "dev"},
	} {
		if got := versionFrom(&tc.bi); got != tc.want {
			t.Errorf("versionFrom(%+v) = %q, want %q", tc.bi.Main, got, tc.want)
		}
	}
}

func TestConfigTyposWarned(t *testing.T) {
	c := newCLI(t)
	cfg := filepath.Join(c.env["XDG_CONFIG_HOME"], "graphrag", "config")
	if err := os.MkdirAll(filepath.Dir(cfg), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfg, []byte("GRAPHRAG_EMBEDD=ollama:x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	env := []string{"GRAPHRAG_STOR=/tmp/x.db", "GRAPHRAG_TEST_DATABASE_URL=postgres://x", "PATH=/bin"}
	Run(context.Background(), []string{"sources"}, stdio{in: strings.NewReader(""), out: &out, err: &errb, env: env}, func(k string) string { return c.env[k] })
	errs := errb.String()
	for _, want := range []string{"GRAPHRAG_STOR is not a graphrag setting", "did you mean GRAPHRAG_STORE?", "unknown key GRAPHRAG_EMBEDD", "did you mean GRAPHRAG_EMBED?"} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errs)
		}
	}
	if strings.Contains(errs, "GRAPHRAG_TEST_DATABASE_URL") {
		t.Errorf("a variable far from every setting is another tool's, not a typo:\n%s", errs)
	}
	errb.Reset()
	Run(context.Background(), []string{"-q", "sources"}, stdio{in: strings.NewReader(""), out: &out, err: &errb, env: env}, func(k string) string { return c.env[k] })
	if strings.Contains(errb.String(), "did you mean") {
		t.Errorf("-q should silence the warnings:\n%s", errb.String())
	}
}

func TestFlagErrors(t *testing.T) {
	c := newCLI(t)
	dir := sampleDir(t)
	c.ok("ingest", dir)
	for _, k := range []string{"0", "-5", "x"} {
		_, errs, code := c.run("", "run", "--k", k, "backup")
		if code == 0 || !strings.Contains(errs, "1 or more") {
			t.Errorf("run --k %s: exit %d, %q", k, code, errs)
		}
	}
	_, errs, code := c.run("", "run", "-race", "what is it")
	if code == 0 || !strings.Contains(errs, "goes after --") {
		t.Errorf("a question starting with - should get the -- hint: exit %d, %q", code, errs)
	}
	out, errs, code := c.run("", "run", "--", "-nightly backup: when does it run?")
	if code != 0 || !strings.Contains(out, "02:30") {
		t.Errorf("run -- \"-question\": exit %d\n%s\n%s", code, out, errs)
	}
}

func TestServeHelpListsItsFlags(t *testing.T) {
	c := newCLI(t)
	out := c.ok("serve", "--help")
	for _, flag := range []string{"--trace", "--json"} {
		if strings.Contains(out, flag) {
			t.Errorf("serve --help lists %s, which does nothing there", flag)
		}
	}
	if !strings.Contains(out, "--k") || !strings.Contains(out, "--addr") {
		t.Errorf("serve --help lacks its own flags:\n%s", out)
	}
}

func TestServeQuietSilencesNotices(t *testing.T) {
	c := newCLI(t)
	c.ok("ingest", sampleDir(t))
	_, errs, code := c.run("", "serve", "--stdio")
	if code != 0 || !strings.Contains(errs, "msg=") {
		t.Fatalf("serve --stdio without -q should log its notice: exit %d, %q", code, errs)
	}
	_, errs, code = c.run("", "-q", "serve", "--stdio")
	if code != 0 || errs != "" {
		t.Errorf("serve -q --stdio: exit %d, stderr %q; want nothing", code, errs)
	}
}

func TestInterruptedSummaryCountsWhatWasDone(t *testing.T) {
	var b bytes.Buffer
	sum := ingest.Summary{Files: 11474, Added: 3900, Chunks: 30000, Skipped: map[string]int{}}
	printSummary(&b, sum, false, 3912)
	if got := b.String(); !strings.HasPrefix(got, "stopped after 3912 of 11474 files: 3900 added") {
		t.Errorf("interrupted summary = %q", got)
	}
	b.Reset()
	printSummary(&b, ingest.Summary{Files: 1, Added: 1, Chunks: 1}, false, -1)
	if got := b.String(); !strings.HasPrefix(got, "1 file: 1 added") || !strings.Contains(got, "1 chunk written") {
		t.Errorf("summary = %q", got)
	}
}
