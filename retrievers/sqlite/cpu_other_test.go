//go:build !unix

package sqlite_test

import "math"

// cpuSeconds is not measured here.
func cpuSeconds() float64 { return math.NaN() }
