// Copyright 2031 The Example Authors. All rights reserved.
// Use of this source code is governed by a made-up licence
// that exists only for this fixture.

//go:build !plan9

// Package strs holds a small string reader, written for graphrag's tests.
package strs

import (
	"errors"
	"io"
)

// ErrNegative is returned for a negative position.
var ErrNegative = errors.New("strs: negative position")

// HTTP-like codes, to test a grouped declaration.
const (
	CodeContinue = 100 // RFC 9110, 15.2.1
	CodeOK       = 200 // RFC 9110, 15.3.1
	CodeTeapot   = 418 // RFC 9110, 15.5.19 (unused)
)

// A Reader reads from a string.
type Reader struct {
	s string
	i int64
}

// NewReader returns a new Reader reading from s.
// It is like a bytes.Reader but reads a string.
func NewReader(s string) *Reader {
	return &Reader{s, 0}
}

// Len returns the number of unread bytes.
func (r *Reader) Len() int {
	if r.i >= int64(len(r.s)) {
		return 0
	}
	return int(int64(len(r.s)) - r.i)
}

// Read implements io.Reader.
func (r *Reader) Read(b []byte) (n int, err error) {
	if r.i >= int64(len(r.s)) {
		return 0, io.EOF
	}
	n = copy(b, r.s[r.i:])
	r.i += int64(n)
	return
}
