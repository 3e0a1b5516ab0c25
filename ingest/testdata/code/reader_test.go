package strs

import "testing"

func TestNewReader(t *testing.T) {
	r := NewReader("abc")
	if r.Len() != 3 {
		t.Fatal("NewReader returns a reader of the wrong length")
	}
}
