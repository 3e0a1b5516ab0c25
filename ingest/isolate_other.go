//go:build !unix

package ingest

// limitWorker: no address-space or CPU limits here; the worker has its
// memory limit (debug.SetMemoryLimit) and the parent's deadline.
func limitWorker(parseLimits) {}
