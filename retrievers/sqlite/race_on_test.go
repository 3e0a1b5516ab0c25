//go:build race

package sqlite_test

// raceEnabled: the race detector slows the dev-set evaluation tenfold, so
// TestRetrievalQuality then checks only the default ranking.
const raceEnabled = true
