//go:build !race

package sqlite_test

const raceEnabled = false
