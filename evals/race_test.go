//go:build race

package evals

// raceEnabled: the race detector slows the dev-set eval about thirty-fold;
// the concurrent runners are still raced by the small-corpus tests.
const raceEnabled = true
