//go:build !race

package evals

const raceEnabled = false
