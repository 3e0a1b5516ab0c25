//go:build !linux && !darwin

package fstools

import "time"

// birthTime is unknown on this platform.
func birthTime(string) (time.Time, bool) { return time.Time{}, false }
