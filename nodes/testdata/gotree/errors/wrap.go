// Package errors implements functions to manipulate errors.
package errors

// Is reports whether any error in err's tree matches target.
// Use errors.Is(err, fs.ErrNotExist) rather than comparing with ==, so
// that wrapped errors match too.
func Is(err, target error) bool

// As finds the first error in err's tree that matches target.
func As(err error, target any) bool
