package main

import (
	"bufio"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// app holds what every command shares: where to read and write, and the
// configuration resolved from flags, environment and the config file, in that
// order of precedence.
type app struct {
	io     stdio
	getenv func(string) string

	configPath string
	store      string
	collection string
	schema     string
	llm        string
	routerLLM  string
	embed      string
	vision     string
	web        string
	quiet      bool
	// confirmWeb, when set (run/chat --confirm-web), asks before a query
	// goes to the web search provider.
	confirmWeb webAsker

	file map[string]string // the config file's settings, loaded once
}

// setting describes one configuration value.
type setting struct {
	flag, env, usage string
	dst              *string
}

func (a *app) settings() []setting {
	return []setting{
		{"store", "GRAPHRAG_STORE", "store: a SQLite file path or a postgres:// URL (default: " + displayPath(defaultStorePath(a.getenv)) + ")", &a.store},
		{"collection", "GRAPHRAG_COLLECTION", "collection within a PostgreSQL store (default \"default\")", &a.collection},
		{"schema", "GRAPHRAG_SCHEMA", "PostgreSQL schema holding graphrag's tables (default \"graphrag\")", &a.schema},
		{"llm", "GRAPHRAG_LLM", "language model that writes answers, e.g. ollama:qwen2.5:7b or openai:http://localhost:8080/v1#model (default: none, extractive answers)", &a.llm},
		{"router-llm", "GRAPHRAG_ROUTER_LLM", "small, fast model that routes and grades (default: the --llm model)", &a.routerLLM},
		{"embed", "GRAPHRAG_EMBED", "embedding model, e.g. ollama:nomic-embed-text (default: none, keyword search)", &a.embed},
		{"vision", "GRAPHRAG_VISION", "vision model that captions images at ingest so they are searchable, e.g. ollama:moondream (default: none, images skipped)", &a.vision},
		{"web", "GRAPHRAG_WEB", "web search provider, e.g. searxng=http://localhost:8888 (default: off)", &a.web},
	}
}

func (a *app) bindGlobalFlags(root *cobra.Command) {
	pf := root.PersistentFlags()
	pf.StringVar(&a.configPath, "config", "", "config file of KEY=VALUE lines using the GRAPHRAG_* names (default: "+displayPath(defaultConfigPath(a.getenv))+")")
	for _, s := range a.settings() {
		pf.StringVar(s.dst, s.flag, "", s.usage+" [$"+s.env+"]")
	}
	pf.BoolVarP(&a.quiet, "quiet", "q", false, "print only results: no progress, no notices")
	root.PersistentPreRunE = func(cmd *cobra.Command, _ []string) error { return a.resolve(cmd.Flags()) }
}

// resolve fills every setting that no flag set from the environment, then
// from the config file.
func (a *app) resolve(flags *pflag.FlagSet) error {
	path := a.configPath
	explicit := path != ""
	if !explicit {
		path = a.getenv("GRAPHRAG_CONFIG")
		explicit = path != ""
	}
	if !explicit {
		path = defaultConfigPath(a.getenv)
	}
	file, err := readConfigFile(path)
	if err != nil && (explicit || !os.IsNotExist(err)) {
		return fmt.Errorf("config file: %w", err)
	}
	a.file = file
	fileKeys := make([]string, 0, len(file))
	for k := range file {
		fileKeys = append(fileKeys, k)
	}
	a.notify(a.configWarnings(fileKeys, a.io.env)...)
	for _, s := range a.settings() {
		if flags.Changed(s.flag) {
			continue
		}
		if v := a.getenv(s.env); v != "" {
			*s.dst = v
		} else if v := a.file[s.env]; v != "" {
			*s.dst = v
		}
	}
	if a.store == "" {
		a.store = defaultStorePath(a.getenv)
	}
	if a.collection == "" {
		a.collection = "default"
	}
	if a.schema == "" {
		a.schema = "graphrag"
	}
	return nil
}

// readConfigFile reads KEY=VALUE lines; '#' starts a comment line.
func readConfigFile(path string) (map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		k = strings.TrimSpace(k)
		if !ok || !strings.HasPrefix(k, "GRAPHRAG_") {
			return nil, fmt.Errorf("%s:%d: want GRAPHRAG_NAME=value, got %q", path, n, line)
		}
		out[k] = strings.Trim(strings.TrimSpace(v), `"'`)
	}
	return out, sc.Err()
}

// defaultStorePath is the per-user SQLite store: $XDG_DATA_HOME/graphrag,
// ~/.local/share/graphrag, or the platform's application-support directory.
func defaultStorePath(getenv func(string) string) string {
	return filepath.Join(dataDir(getenv), "graphrag.db")
}

func dataDir(getenv func(string) string) string {
	if d := getenv("XDG_DATA_HOME"); d != "" {
		return filepath.Join(d, "graphrag")
	}
	home := getenv("HOME")
	switch runtime.GOOS {
	case "windows":
		if d := getenv("LocalAppData"); d != "" {
			return filepath.Join(d, "graphrag")
		}
	case "darwin":
		if home != "" {
			return filepath.Join(home, "Library", "Application Support", "graphrag")
		}
	}
	if home == "" {
		return "graphrag-data"
	}
	return filepath.Join(home, ".local", "share", "graphrag")
}

func defaultConfigPath(getenv func(string) string) string {
	if d := getenv("XDG_CONFIG_HOME"); d != "" {
		return filepath.Join(d, "graphrag", "config")
	}
	if home := getenv("HOME"); home != "" {
		return filepath.Join(home, ".config", "graphrag", "config")
	}
	return "graphrag.conf"
}

// displayStore names the store for people: a path with ~, or a URL
// without its password.
func displayStore(s string) string {
	if u, err := url.Parse(s); err == nil && u.Scheme != "" && u.User != nil {
		if _, ok := u.User.Password(); ok {
			u.User = url.UserPassword(u.User.Username(), "xxxxx")
		}
		return u.String()
	}
	return displayPath(s)
}

// displayPath shortens the home directory to ~ for help text.
func displayPath(p string) string {
	if home, err := os.UserHomeDir(); err == nil && home != "" && strings.HasPrefix(p, home+string(filepath.Separator)) {
		return "~" + p[len(home):]
	}
	return p
}
