package conversation

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Lister is the optional ability List needs of the checkpoint store:
// *sqlite.Saver and *postgres.Saver (graph/checkpoint) have it.
type Lister interface {
	Threads(ctx context.Context, prefix string) ([]string, error)
}

// ErrCannotList: the checkpoint store cannot list its threads.
var ErrCannotList = errors.New("this checkpoint store cannot list its threads")

// Thread summarises a stored conversation.
type Thread struct {
	Name    string    `json:"name"`
	Turns   int       `json:"turns"`
	Last    string    `json:"last_question,omitempty"`
	Updated time.Time `json:"updated"`
}

// List returns the conversations, by name.
func (s *Store) List(ctx context.Context) ([]Thread, error) {
	l, ok := s.cp.(Lister)
	if !ok {
		return nil, fmt.Errorf("list conversations: %w", ErrCannotList)
	}
	keys, err := l.Threads(ctx, s.opts.Prefix)
	if err != nil {
		return nil, fmt.Errorf("list conversations: %w", err)
	}
	out := make([]Thread, 0, len(keys))
	for _, k := range keys {
		name := strings.TrimPrefix(k, s.opts.Prefix)
		c, st, err := s.load(ctx, name)
		if err != nil {
			return nil, err
		}
		if c.Seq == 0 {
			continue // deleted since Threads answered
		}
		t := Thread{Name: name, Turns: len(st.Turns), Updated: c.Created}
		if n := len(st.Turns); n > 0 {
			t.Last = st.Turns[n-1].Query
		}
		out = append(out, t)
	}
	return out, nil
}
