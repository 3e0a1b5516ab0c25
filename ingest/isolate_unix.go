//go:build unix

package ingest

import (
	"bufio"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// workerAddressSlack is address space a worker may map beyond what it has
// mapped when the limit is set plus its memory budget: stacks of threads
// started later and the runtime's own bookkeeping.
const workerAddressSlack = 256 << 20

// limitWorker caps the worker's address space and CPU time. The memory
// limit set with debug.SetMemoryLimit makes the collector work harder near
// the budget; RLIMIT_AS makes an allocation past it fail, which ends the
// worker ("out of memory") instead of the machine's memory. The Go runtime
// reserves far more address space than it uses (over a GiB before main),
// so the cap is what is mapped now plus the budget; where that cannot be
// read there is no address-space cap. Errors are ignored: a system that
// refuses a limit still has the parse deadline.
func limitWorker(lim parseLimits) {
	if mapped := mappedBytes(); mapped > 0 {
		as := uint64(mapped + lim.Memory + workerAddressSlack)
		_ = unix.Setrlimit(unix.RLIMIT_AS, &unix.Rlimit{Cur: as, Max: as})
	}
	cpu := uint64((lim.Timeout + workerGrace).Seconds())
	_ = unix.Setrlimit(unix.RLIMIT_CPU, &unix.Rlimit{Cur: cpu, Max: cpu})
}

// mappedBytes is this process's address space (VmSize), 0 if unknown.
func mappedBytes() int64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmSize:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			if err != nil {
				return 0
			}
			return kb << 10
		}
	}
	return 0
}
