package ingest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"strings"
	"time"
)

// Untrusted formats are parsed in a worker process: the running binary
// itself, started again with workerEnv set, which the init function below
// turns into a parser that reads one file on stdin and writes its text on
// stdout. The PDF library takes no context and has unbounded loops (object
// streams that extend themselves, xref sections whose Prev points back), so
// a parse stuck in it can only be stopped by ending the process it runs
// in; a goroutine with a deadline would be abandoned, not stopped, and go
// on spinning and holding memory. The worker runs with a memory budget
// (debug.SetMemoryLimit, and RLIMIT_AS where the system has it) and a CPU
// limit; the parent kills it at the parse deadline or when its context is
// cancelled (Ctrl-C, a client that goes away).
//
// The trade-off: a process start per PDF (a few milliseconds, small beside
// the parse), and the binary must be startable again (it is, from
// /proc/self/exe on Linux even after an upgrade replaced it). Where it
// cannot be, or with Options.ParseInProcess, the parse runs in this process
// under checkPDF's bounds and a deadline after which it is abandoned.

// workerEnv names the environment variable that makes a process start as
// a parser worker. Any binary that links this package can be one.
const workerEnv = "GRAPHRAG_INGEST_PARSE_WORKER"

// Exit codes of a worker besides 0 (the text follows on stdout).
const (
	workerFailed    = 1 // the file could not be parsed; why is on stderr
	workerNotText   = 3 // ErrNotText
	workerOverLimit = 4 // a limit was crossed; which is on stderr
)

// workerGrace is CPU time a worker gets past its parse timeout before the
// system stops it: the parent kills it at the deadline, so this limit only
// matters if the parent died first and left the worker running.
const workerGrace = 10 * time.Second

// maxWorkerMessage bounds what is read of a worker's stderr and of the
// header line of its answer.
const maxWorkerMessage = 64 << 10

// workerRequest is the first line a worker reads; the file's bytes follow.
type workerRequest struct {
	Ext    string      `json:"ext"`
	Path   string      `json:"path"`
	Size   int64       `json:"size"`
	Limits parseLimits `json:"limits"`
}

// workerAnswer is the first line a worker writes; the text follows.
type workerAnswer struct {
	Title string `json:"title"`
}

func init() {
	if os.Getenv(workerEnv) == "" {
		return
	}
	os.Unsetenv(workerEnv)
	os.Exit(runWorker(os.Stdin, os.Stdout, os.Stderr))
}

// runWorker parses one file as a worker and returns the exit code.
func runWorker(stdin io.Reader, stdout, stderr io.Writer) int {
	fail := func(code int, err error) int {
		fmt.Fprint(stderr, err.Error())
		return code
	}
	br := bufio.NewReaderSize(stdin, 64<<10)
	line, err := br.ReadSlice('\n')
	if err != nil {
		return fail(workerFailed, fmt.Errorf("read the request: %w", err))
	}
	var req workerRequest
	if err := json.Unmarshal(line, &req); err != nil {
		return fail(workerFailed, fmt.Errorf("read the request: %w", err))
	}
	debug.SetMemoryLimit(req.Limits.Memory)
	limitWorker(req.Limits)
	data := make([]byte, req.Size)
	if _, err := io.ReadFull(br, data); err != nil {
		return fail(workerFailed, fmt.Errorf("read the file: %w", err))
	}
	l, err := parseHere(context.Background(), req.Ext, req.Path, data, req.Limits)
	switch {
	case errors.Is(err, ErrNotText):
		return fail(workerNotText, err)
	case errors.Is(err, errOverLimit):
		return fail(workerOverLimit, err)
	case err != nil:
		return fail(workerFailed, err)
	case int64(len(l.Text)) > req.Limits.MaxText:
		return fail(workerOverLimit, textTooLarge(req.Limits.MaxText))
	}
	head, _ := json.Marshal(workerAnswer{Title: l.Title})
	bw := bufio.NewWriter(stdout)
	bw.Write(head)
	bw.WriteByte('\n')
	bw.WriteString(l.Text)
	if err := bw.Flush(); err != nil {
		return fail(workerFailed, fmt.Errorf("write the text: %w", err))
	}
	return 0
}

// parseHere parses one file in this process with the default loader of
// its format, after the format's own checks (checkPDF).
func parseHere(ctx context.Context, ext, path string, data []byte, lim parseLimits) (Loaded, error) {
	if ext == "pdf" {
		if err := checkPDF(data, lim.MaxDecompressed); err != nil {
			return Loaded{}, err
		}
	}
	loader := DefaultLoaders()[ext]
	if loader == nil {
		return Loaded{}, fmt.Errorf("no loader for %q", ext)
	}
	return loader(ctx, path, data)
}

// parseIsolated parses one file in a worker process, or in this one when
// inProcess is set or no worker can be started.
func parseIsolated(ctx context.Context, ext, path string, data []byte, lim parseLimits, inProcess bool) (Loaded, error) {
	if !inProcess {
		l, err := parseInWorker(ctx, ext, path, data, lim)
		if !errors.Is(err, errNoWorker) {
			return l, err
		}
	}
	return parseAbandonable(ctx, ext, path, data, lim)
}

// errNoWorker: the worker process could not be started.
var errNoWorker = errors.New("no parser worker")

// workerExecutable is the binary to start as a worker: this one.
func workerExecutable() (string, error) {
	if runtime.GOOS == "linux" {
		if _, err := os.Stat("/proc/self/exe"); err == nil {
			return "/proc/self/exe", nil
		}
	}
	return os.Executable()
}

func parseInWorker(ctx context.Context, ext, path string, data []byte, lim parseLimits) (Loaded, error) {
	exe, err := workerExecutable()
	if err != nil {
		return Loaded{}, fmt.Errorf("%w: %v", errNoWorker, err)
	}
	head, err := json.Marshal(workerRequest{Ext: ext, Path: path, Size: int64(len(data)), Limits: lim})
	if err != nil {
		return Loaded{}, err
	}
	wctx, cancel := context.WithTimeout(ctx, lim.Timeout)
	defer cancel()
	cmd := exec.CommandContext(wctx, exe)
	cmd.Env = append(os.Environ(), workerEnv+"=1")
	cmd.Stdin = io.MultiReader(bytes.NewReader(append(head, '\n')), bytes.NewReader(data))
	var stderr limitedBuffer
	stderr.max = maxWorkerMessage
	cmd.Stderr = &stderr
	cmd.WaitDelay = time.Second // pipes are closed this long after a kill
	out, err := cmd.StdoutPipe()
	if err != nil {
		return Loaded{}, fmt.Errorf("%w: %v", errNoWorker, err)
	}
	if err := cmd.Start(); err != nil {
		return Loaded{}, fmt.Errorf("%w: %v", errNoWorker, err)
	}
	l, rerr := readAnswer(out, lim.MaxText)
	if rerr != nil && !errors.Is(rerr, io.ErrUnexpectedEOF) {
		cancel() // an answer too long, or unreadable: stop the worker
	} else {
		io.Copy(io.Discard, out) // a worker that failed: let it exit with its code
	}
	werr := cmd.Wait()
	switch {
	case ctx.Err() != nil:
		return Loaded{}, ctx.Err()
	case errors.Is(wctx.Err(), context.DeadlineExceeded):
		return Loaded{}, fmt.Errorf("%w: not done within %s", errParseTimeout, lim.Timeout)
	case errors.Is(rerr, errOverLimit):
		return Loaded{}, rerr
	}
	var ee *exec.ExitError
	if errors.As(werr, &ee) {
		msg := strings.TrimSpace(stderr.String())
		switch ee.ExitCode() {
		case workerNotText:
			return Loaded{}, ErrNotText
		case workerOverLimit:
			return Loaded{}, overLimit(msg)
		case workerFailed:
			return Loaded{}, errors.New(msg)
		}
		if outOfMemory(msg) {
			return Loaded{}, overLimit(fmt.Sprintf("the parse needed over %s of memory (ParseMemory)", sizeText(lim.Memory)))
		}
		return Loaded{}, fmt.Errorf("parser worker: %v: %s", werr, firstLine(msg))
	}
	if werr != nil {
		return Loaded{}, fmt.Errorf("parser worker: %w", werr)
	}
	return l, rerr
}

// readAnswer reads a worker's answer: a header line, then at most maxText
// bytes of text.
func readAnswer(r io.Reader, maxText int64) (Loaded, error) {
	br := bufio.NewReaderSize(r, maxWorkerMessage)
	line, err := br.ReadSlice('\n')
	if err != nil {
		if err == io.EOF && len(line) == 0 {
			return Loaded{}, io.ErrUnexpectedEOF // the worker failed: its exit says why
		}
		return Loaded{}, fmt.Errorf("read the parser's answer: %w", err)
	}
	var a workerAnswer
	if err := json.Unmarshal(line, &a); err != nil {
		return Loaded{}, fmt.Errorf("read the parser's answer: %w", err)
	}
	text, err := io.ReadAll(io.LimitReader(br, maxText+1))
	if err != nil {
		return Loaded{}, fmt.Errorf("read the parser's answer: %w", err)
	}
	if int64(len(text)) > maxText {
		return Loaded{}, textTooLarge(maxText)
	}
	return Loaded{Title: a.Title, Text: string(text)}, nil
}

// parseAbandonable parses in this process, giving up at the deadline or
// when ctx is cancelled. A parse that never returns is left running: this
// is the fallback for when no worker process can be started.
func parseAbandonable(ctx context.Context, ext, path string, data []byte, lim parseLimits) (Loaded, error) {
	pctx, cancel := context.WithTimeout(ctx, lim.Timeout)
	defer cancel()
	type result struct {
		l   Loaded
		err error
	}
	done := make(chan result, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- result{err: fmt.Errorf("malformed file (%v)", r)}
			}
		}()
		l, err := parseHere(pctx, ext, path, data, lim)
		done <- result{l, err}
	}()
	select {
	case r := <-done:
		return r.l, r.err
	case <-pctx.Done():
		if err := ctx.Err(); err != nil {
			return Loaded{}, err
		}
		return Loaded{}, fmt.Errorf("%w: not done within %s (abandoned in this process)", errParseTimeout, lim.Timeout)
	}
}

// limitedBuffer keeps the first max bytes written to it and drops the rest.
type limitedBuffer struct {
	bytes.Buffer
	max int
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if room := b.max - b.Len(); room > 0 {
		b.Buffer.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

// outOfMemory reports whether a worker's last words say it ran out of
// memory (address space): the Go runtime's, or the race detector's in a
// test binary built with -race.
func outOfMemory(stderr string) bool {
	for _, s := range []string{"out of memory", "failed to allocate", "address space collisions"} {
		if strings.Contains(stderr, s) {
			return true
		}
	}
	return false
}
