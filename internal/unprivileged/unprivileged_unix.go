//go:build linux || darwin || freebsd || netbsd || openbsd

package unprivileged

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
)

// nobody is the conventional unprivileged user and group id.
const nobody = 65534

func rerun(t *testing.T) bool {
	t.Helper()
	if os.Geteuid() != 0 || os.Getenv(envChild) != "" {
		return false
	}
	// The test binary may sit in a folder only root can enter (go test's
	// work directory is 0700): the child runs a world-readable copy.
	dir, err := os.MkdirTemp("", "unprivileged-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "test.bin")
	if err := copyFile(bin, os.Args[0]); err != nil {
		t.Fatalf("copy the test binary for the unprivileged run: %v", err)
	}
	home := filepath.Join(dir, "home")
	if err := os.Mkdir(home, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(home, 0o777); err != nil { // past the umask
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-test.run", runPattern(t.Name()), "-test.v", "-test.count=1")
	cmd.Dir = home
	cmd.Env = append(os.Environ(), envChild+"=1", "HOME="+home, "TMPDIR="+home)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
	out, err := cmd.CombinedOutput()
	switch {
	case err != nil:
		t.Fatalf("the test as an unprivileged user (uid %d) failed: %v\n%s", nobody, err, out)
	case bytes.Contains(out, []byte("--- SKIP")):
		t.Fatalf("the test skipped as an unprivileged user (uid %d):\n%s", nobody, out)
	case !bytes.Contains(out, []byte("--- PASS")):
		t.Fatalf("the test did not run as an unprivileged user (uid %d):\n%s", nobody, out)
	}
	t.Logf("ran as uid %d in a child process", nobody)
	return true
}

// runPattern is a -test.run pattern matching exactly the test named name
// ("TestX" or "TestX/sub").
func runPattern(name string) string {
	parts := strings.Split(name, "/")
	for i, p := range parts {
		parts[i] = "^" + regexp.QuoteMeta(p) + "$"
	}
	return strings.Join(parts, "/")
}

func copyFile(dst, src string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
