//go:build linux

package fstools

import (
	"time"

	"golang.org/x/sys/unix"
)

// birthTime asks statx for the creation (birth) time; ok is false when the
// kernel or filesystem does not record it.
func birthTime(path string) (time.Time, bool) {
	var st unix.Statx_t
	if err := unix.Statx(unix.AT_FDCWD, path, unix.AT_STATX_SYNC_AS_STAT, unix.STATX_BTIME, &st); err != nil {
		return time.Time{}, false
	}
	if st.Mask&unix.STATX_BTIME == 0 || st.Btime.Sec == 0 && st.Btime.Nsec == 0 {
		return time.Time{}, false
	}
	return time.Unix(st.Btime.Sec, int64(st.Btime.Nsec)), true
}
