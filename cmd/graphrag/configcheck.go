package main

import (
	"fmt"
	"sort"
	"strings"
)

// otherKnownEnv are GRAPHRAG_* names graphrag reads besides the settings.
var otherKnownEnv = []string{"GRAPHRAG_CONFIG", "GRAPHRAG_TOKEN"}

// maxTypoDistance is how far (in edits) a name may be from a known one to
// be taken for a typo of it: GRAPHRAG_STOR, GRAPHRAG_EMBEDD, GRAPHRAG_LMM
// are one or two edits away; names of other tools' variables are further.
const maxTypoDistance = 2

func (a *app) knownKeys() []string {
	keys := append([]string(nil), otherKnownEnv...)
	for _, s := range a.settings() {
		keys = append(keys, s.env)
	}
	return keys
}

// configWarnings says which config file keys are unknown (every one: the
// file is graphrag's alone) and which environment variables look like a
// typo of a known name, each with the closest known name.
func (a *app) configWarnings(fileKeys, environ []string) []string {
	known := map[string]bool{}
	keys := a.knownKeys()
	for _, k := range keys {
		known[k] = true
	}
	var out []string
	sort.Strings(fileKeys)
	for _, k := range fileKeys {
		if known[k] {
			continue
		}
		msg := fmt.Sprintf("config file: unknown key %s is ignored", k)
		if near, d := closest(k, keys); d <= maxTypoDistance+2 {
			msg += fmt.Sprintf("; did you mean %s?", near)
		}
		out = append(out, msg)
	}
	for _, kv := range environ {
		k, _, _ := strings.Cut(kv, "=")
		if !strings.HasPrefix(k, "GRAPHRAG_") || known[k] {
			continue
		}
		if near, d := closest(k, keys); d <= maxTypoDistance {
			out = append(out, fmt.Sprintf("environment: %s is not a graphrag setting and is ignored; did you mean %s?", k, near))
		}
	}
	return out
}

// closest returns the key nearest to s by edit distance, and the distance.
func closest(s string, keys []string) (string, int) {
	best, bestD := "", int(^uint(0)>>1)
	for _, k := range keys {
		if d := editDistance(s, k); d < bestD {
			best, bestD = k, d
		}
	}
	return best, bestD
}

// editDistance is the Levenshtein distance between a and b, by bytes (the
// names compared are ASCII).
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
