// Package unprivileged runs a test that needs file permissions to bite as an
// ordinary user when the test binary runs as root, as CI does: root reads a
// chmod 000 file or folder, so such a test would otherwise have to skip, and
// a test that always skips in CI checks nothing.
//
// A test calls Rerun first and returns when it reports true:
//
//	func TestUnreadableFolderKeepsItsDocuments(t *testing.T) {
//		if unprivileged.Rerun(t) {
//			return // it ran, as nobody, in a child process
//		}
//		// ... chmod 000 and check ...
//	}
package unprivileged

import (
	"testing"
)

// envChild marks the child process that runs the test as nobody.
const envChild = "GRAPHRAG_TEST_UNPRIVILEGED"

// Rerun reports whether the test has already been run elsewhere. As root it
// re-runs the calling test (a top-level test or a subtest) in a copy of the
// test binary as the user nobody, fails t when that run fails, skips or runs
// nothing, and returns true. Otherwise (not root, no way to change user, or
// already the child) it returns false and the test runs here.
//
// The child runs in a fresh world-readable directory, not the package's, so
// a test that reruns may not read testdata by a relative path.
func Rerun(t *testing.T) bool {
	t.Helper()
	return rerun(t)
}
