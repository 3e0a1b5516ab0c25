package server

import (
	"context"
	"errors"
	"net/http"

	"github.com/graphrag/graphrag"
	"github.com/graphrag/graphrag/graph"
)

// apiError is an error with the HTTP status and code it is answered with.
type apiError struct {
	status int
	code   string
	msg    string
	// retryAfter, when set, is the Retry-After header's value in seconds.
	retryAfter string
}

func (e *apiError) Error() string { return e.msg }

func newError(status int, code, msg string) *apiError {
	return &apiError{status: status, code: code, msg: msg}
}

// retryUnavailable is the Retry-After, in seconds, of a 503: long enough
// for a restarted database or model server to accept connections again.
const retryUnavailable = "5"

// statusClientClosed is nginx's "client closed request": logged and counted
// when a client goes away, never seen by it.
const statusClientClosed = 499

// classify maps an error to the status and code a client sees, and the
// message to show it.
func classify(err error) (*apiError, string) {
	var ae *apiError
	var ne *graph.NodeError
	switch {
	case errors.As(err, &ae):
		return ae, ae.msg
	case errors.Is(err, context.DeadlineExceeded):
		return newError(http.StatusGatewayTimeout, "timeout", ""), err.Error()
	case errors.Is(err, context.Canceled), errors.Is(err, errEmit):
		return newError(statusClientClosed, "canceled", ""), "the request was cancelled"
	case errors.Is(err, graphrag.ErrUnavailable):
		// A store or model server that cannot be reached: the client may
		// retry later, nothing is wrong with its request or with graphrag.
		return newError(http.StatusServiceUnavailable, "unavailable", ""), err.Error()
	case errors.Is(err, graph.ErrMaxSteps):
		return newError(http.StatusInternalServerError, "max_steps", ""), err.Error()
	case errors.Is(err, graphrag.ErrInvalidQuery):
		return newError(http.StatusBadRequest, "invalid_query", ""), err.Error()
	case errors.Is(err, graphrag.ErrNotConfigured):
		return newError(http.StatusNotImplemented, "not_configured", ""), err.Error()
	case errors.Is(err, graphrag.ErrEmbedderMismatch):
		return newError(http.StatusConflict, "embedder_mismatch", ""), err.Error()
	case errors.Is(err, graphrag.ErrNotFound):
		return newError(http.StatusNotFound, "not_found", ""), err.Error()
	case errors.As(err, &ne):
		return newError(http.StatusInternalServerError, "node_failed", ""), err.Error()
	}
	return newError(http.StatusInternalServerError, "internal", ""), err.Error()
}

// errorBody is the body of every error response.
type errorBody struct {
	Error ErrorBody `json:"error"`
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := marshal(v)
	if err != nil {
		status = http.StatusInternalServerError
		b, _ = marshal(errorBody{ErrorBody{"internal", "encode response: " + err.Error()}})
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	_, _ = w.Write(append(b, '\n'))
}

// writeError answers err as {"error": {"code", "message"}}.
func writeError(w http.ResponseWriter, err error) {
	ae, msg := classify(err)
	switch {
	case ae.retryAfter != "":
		w.Header().Set("Retry-After", ae.retryAfter)
	case ae.status == http.StatusTooManyRequests:
		w.Header().Set("Retry-After", "1")
	case ae.status == http.StatusServiceUnavailable:
		w.Header().Set("Retry-After", retryUnavailable)
	}
	writeJSON(w, ae.status, errorBody{ErrorBody{Code: ae.code, Message: msg}})
}
