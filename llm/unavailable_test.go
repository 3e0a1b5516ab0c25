package llm

import (
	"errors"
	"fmt"
	"testing"

	"github.com/graphrag/graphrag"
)

func TestUnreachableMatchesErrUnavailable(t *testing.T) {
	tests := []struct {
		kind error
		want bool
	}{
		{ErrUnreachable, true},
		{ErrTimeout, false},
		{ErrBadOutput, false},
		{ErrServer, false},
		{ErrModelMissing, false},
	}
	for _, tt := range tests {
		t.Run(tt.kind.Error(), func(t *testing.T) {
			err := fmt.Errorf("write: %w", &Error{Op: "write", Model: "ollama:qwen2.5:3b", Kind: tt.kind, Err: errors.New("dial tcp: connection refused")})
			if got := errors.Is(err, graphrag.ErrUnavailable); got != tt.want {
				t.Errorf("errors.Is(err, graphrag.ErrUnavailable) = %v, want %v", got, tt.want)
			}
			if !errors.Is(err, tt.kind) {
				t.Error("the kind no longer matches")
			}
		})
	}
}
