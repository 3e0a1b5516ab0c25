package llm

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/graphrag/graphrag"
)

// Why a call failed; match with errors.Is. Every error a model call returns
// is an *Error whose Kind is one of these (or context.Canceled when the
// caller cancelled).
var (
	// ErrUnreachable: no connection to the server, or it dropped mid-answer.
	ErrUnreachable = errors.New("language model server unreachable")
	// ErrTimeout: the call took longer than its timeout.
	ErrTimeout = errors.New("language model call timed out")
	// ErrBadOutput: the model answered, but not with anything usable
	// (unparseable, wrong enum value, empty or truncated stream).
	ErrBadOutput = errors.New("language model output unusable")
	// ErrServer: the server kept failing (5xx or 429) after the retries.
	ErrServer = errors.New("language model server error")
	// ErrModelMissing: the server does not have the model.
	ErrModelMissing = errors.New("model not available on the server")
	// ErrRejected: the server refused the request (a 4xx other than 404/429).
	ErrRejected = errors.New("language model server rejected the request")
)

// Error is a failed model call.
type Error struct {
	// Op is what was asked: "plan", "grade", "rewrite", "write", "judge", "embed", "caption".
	Op string
	// Model is the spec string of the model asked.
	Model string
	// Kind is one of the sentinels above, or context.Canceled.
	Kind error
	// Err is the underlying cause.
	Err error
	// Output is the start of what the model said, for ErrBadOutput.
	Output string
	// Usage counts the calls made, failed ones included.
	Usage graphrag.Usage
}

func (e *Error) Error() string {
	msg := fmt.Sprintf("llm %s (%s): %v", e.Op, e.Model, e.Kind)
	cause := ""
	if e.Err != nil && e.Err != e.Kind {
		cause = strings.TrimPrefix(e.Err.Error(), e.Kind.Error()+": ")
		msg += ": " + cause
	}
	if e.Output != "" && !strings.Contains(cause, "(output ") {
		msg += fmt.Sprintf(" (model said %q)", e.Output)
	}
	if h := e.hint(); h != "" {
		msg += "; " + h
	}
	return msg
}

// hint says what the user can do about the error.
func (e *Error) hint() string {
	sp, err := ParseSpec(e.Model)
	if err != nil {
		return ""
	}
	switch e.Kind {
	case ErrUnreachable:
		if sp.Backend == Ollama {
			return "is Ollama running? start it: ollama serve"
		}
		return "is the server running? e.g.: llama-server -m model.gguf --port 8080"
	case ErrModelMissing:
		if sp.Backend == Ollama {
			return "run: ollama pull " + sp.Model
		}
		return "check the model name against the server's /v1/models"
	case ErrTimeout:
		return "the model is too slow for the timeout: raise it, or use a smaller model"
	}
	return ""
}

// Unwrap lets errors.Is match both the Kind and the cause.
func (e *Error) Unwrap() []error { return []error{e.Kind, e.Err} }

// Is makes an unreachable server's error match graphrag.ErrUnavailable, the
// sentinel callers that do not import llm (the RAG nodes) check.
func (e *Error) Is(target error) bool {
	return target == graphrag.ErrUnavailable && e.Kind == ErrUnreachable
}

// Reason is a short, stable label for why err happened, for traces and
// counters: "unreachable", "timeout", "bad_output", "server_error",
// "model_missing", "rejected", "canceled", or "error".
func Reason(err error) string {
	switch {
	case err == nil:
		return ""
	case errors.Is(err, ErrTimeout):
		return "timeout"
	case errors.Is(err, ErrBadOutput):
		return "bad_output"
	case errors.Is(err, ErrModelMissing):
		return "model_missing"
	case errors.Is(err, ErrServer):
		return "server_error"
	case errors.Is(err, ErrRejected):
		return "rejected"
	case errors.Is(err, ErrUnreachable):
		return "unreachable"
	case errors.Is(err, context.Canceled):
		return "canceled"
	}
	return "error"
}

// UsageOf returns the usage recorded on a failed call's error (zero if none).
func UsageOf(err error) graphrag.Usage {
	var e *Error
	if errors.As(err, &e) {
		return e.Usage
	}
	return graphrag.Usage{}
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
