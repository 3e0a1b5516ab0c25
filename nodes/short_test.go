package nodes

import (
	"testing"

	"github.com/graphrag/graphrag"
)

func TestShortAnswer(t *testing.T) {
	kept := []graphrag.Hit{
		doc("a", "Ada Lovelace", "Ada Lovelace (born 10 December 1815) was an English mathematician."),
		doc("b", "Grace Hopper", "Grace Hopper (born 9 December 1906) was an American computer scientist. She worked on the Harvard Mark I."),
	}
	tests := []struct{ q, want string }{
		{"Who was born first, Ada Lovelace or Grace Hopper?", "Ada Lovelace"},
		{"Who was born later, Ada Lovelace or Grace Hopper?", "Grace Hopper"},
		{"Was Grace Hopper a computer scientist?", "yes"},
		{"Was Grace Hopper a famous racing cyclist?", "no"},
		{"Which Harvard machine did Grace Hopper work on?", "Harvard Mark I"},
		{"In what year was Grace Hopper born?", "9 December 1906"},
	}
	for _, tt := range tests {
		t.Run(tt.q, func(t *testing.T) {
			a := extractive(tt.q, kept, 3)
			if got := shortAnswer(tt.q, kept, answerSentences(a, kept)); got != tt.want {
				t.Errorf("shortAnswer = %q, want %q", got, tt.want)
			}
		})
	}
}
