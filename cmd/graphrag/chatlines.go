package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/chzyer/readline"
	"golang.org/x/term"
)

// chatPrompt is what chat shows before each question.
const chatPrompt = "› "

// lineReader gives chat one typed line at a time: io.EOF when the user
// leaves (Ctrl-D), readline.ErrInterrupt when Ctrl-C clears the line.
type lineReader interface {
	Readline() (string, error)
	Close() error
}

// chatHistoryPath is the file chat keeps typed lines in, beside the default store.
func chatHistoryPath(getenv func(string) string) string {
	return filepath.Join(dataDir(getenv), "chat_history")
}

// chatHistoryLimit is how many typed lines the history file keeps.
const chatHistoryLimit = 1000

// lineReader reads lines with editing and history when chat runs on a
// terminal, plainly from the input otherwise (pipes, scripts, tests).
func (a *app) lineReader(noHistory bool) (lineReader, error) {
	in, inOK := a.io.in.(*os.File)
	errf, errOK := a.io.err.(*os.File)
	if !inOK || !errOK || !term.IsTerminal(int(in.Fd())) {
		return newScanLines(a.io.in, a.io.err, a.quiet), nil
	}
	cfg := &readline.Config{
		Prompt:            chatPrompt,
		HistoryLimit:      chatHistoryLimit,
		HistorySearchFold: true,
		Stdin:             in,
		Stdout:            errf,
		Stderr:            errf,
	}
	if noHistory {
		cfg.HistoryLimit = -1
	} else {
		path := chatHistoryPath(a.getenv)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err == nil {
			cfg.HistoryFile = path
		}
	}
	rl, err := readline.NewEx(cfg)
	if err != nil {
		return nil, fmt.Errorf("line editing: %w (pipe the questions in to chat without it)", err)
	}
	return rl, nil
}

// scanLines reads lines from a plain input, showing the prompt on w.
type scanLines struct {
	sc    *bufio.Scanner
	w     io.Writer
	quiet bool
}

func newScanLines(r io.Reader, w io.Writer, quiet bool) *scanLines {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	return &scanLines{sc: sc, w: w, quiet: quiet}
}

func (s *scanLines) Readline() (string, error) {
	if !s.quiet {
		fmt.Fprint(s.w, "\n"+chatPrompt)
	}
	if !s.sc.Scan() {
		if err := s.sc.Err(); err != nil {
			return "", err
		}
		return "", io.EOF
	}
	return s.sc.Text(), nil
}

func (s *scanLines) Close() error { return nil }
