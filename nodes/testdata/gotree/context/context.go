// Package context defines the Context type, which carries deadlines,
// cancellation signals, and other request-scoped values.
package context

// WithCancel returns a derived context that points to the parent context
// but has a new Done channel, and a CancelFunc. The returned context's Done
// channel is closed when the returned cancel function is called or when the
// parent context's Done channel is closed.
func WithCancel(parent Context) (ctx Context, cancel CancelFunc)

// A CancelFunc tells an operation to abandon its work.
type CancelFunc func()
