// Package io provides basic interfaces to I/O primitives.
package io

// EOF is the error returned by Read when no more input is available.
// Functions should return EOF only to signal a graceful end of input.
var EOF = errors.New("EOF")

// Reader is the interface that wraps the basic Read method.
type Reader interface {
	Read(p []byte) (n int, err error)
}

// ReadAll reads from r until an error or EOF and returns the data it read.
func ReadAll(r Reader) ([]byte, error)
