package main

import (
	"runtime/debug"
)

// buildVersion is graphrag's version: the one set by -ldflags, else the
// module version `go install …@version` recorded, else the commit a
// source build came from.
func buildVersion() string {
	if version != "dev" {
		return version
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return version
	}
	return versionFrom(bi)
}

// versionFrom reads a version out of build information.
func versionFrom(bi *debug.BuildInfo) string {
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev, modified string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	if rev == "" {
		return "dev"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if modified == "true" {
		return "dev (" + rev + ", modified)"
	}
	return "dev (" + rev + ")"
}
