//go:build unix

package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"
)

// signalChildEnv makes the test binary, started again by
// TestSecondInterruptExits, play a command stuck past its cancellation.
const signalChildEnv = "GRAPHRAG_TEST_SIGNAL_CHILD"

// TestSecondInterruptExits: the first Ctrl-C cancels the context; a
// second ends the process at once even if the work ignores the
// cancellation (a parser stuck in a loop). Before, both were swallowed
// and only kill -9 stopped graphrag.
func TestSecondInterruptExits(t *testing.T) {
	if os.Getenv(signalChildEnv) != "" {
		ctx, _, _ := notifyInterrupt(context.Background())
		fmt.Println("ready")
		<-ctx.Done()
		fmt.Println("cancelled")
		select {} // stuck: ignores the cancellation
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestSecondInterruptExits$")
	cmd.Env = append(os.Environ(), signalChildEnv+"=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	lines := bufio.NewScanner(out)
	expect := func(want string) {
		t.Helper()
		for lines.Scan() {
			if lines.Text() == want {
				return
			}
		}
		t.Fatalf("child never said %q", want)
	}
	expect("ready")
	cmd.Process.Signal(syscall.SIGINT)
	expect("cancelled")
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	// The handler lets go just after the cancellation, not before the
	// child says "cancelled": interrupt again until the process ends, as a
	// user would (before the fix no number of interrupts ended it).
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(2 * time.Minute)
	for {
		select {
		case <-tick.C:
			cmd.Process.Signal(syscall.SIGINT)
			continue
		case err := <-done:
			var ee *exec.ExitError
			if !errors.As(err, &ee) {
				t.Fatalf("child exited with %v, want killed by SIGINT", err)
			}
			if ws, ok := ee.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGINT {
				t.Fatalf("child ended with %v, want killed by SIGINT", err)
			}
		case <-deadline:
			t.Fatal("a second SIGINT did not end the process")
		}
		return
	}
}
