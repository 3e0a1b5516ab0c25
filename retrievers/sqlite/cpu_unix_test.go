//go:build unix

package sqlite_test

import "syscall"

// cpuSeconds is the user+system CPU time this process has used. On a
// shared machine CPU time is steadier than wall time.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}
