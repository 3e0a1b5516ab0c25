package server

import (
	"net/http"
	"strings"
)

// maxThreadName bounds a thread name in a request.
const maxThreadName = 200

// checkThread refuses a request's thread the server cannot keep.
func (s *Server) checkThread(req *QueryRequest) error {
	if req.Thread == "" {
		return nil
	}
	switch {
	case s.cfg.Threads == nil:
		return newError(http.StatusNotImplemented, "not_configured",
			"this server keeps no conversation threads; send the earlier turns as \"history\" instead of \"thread\"")
	case len(req.History) > 0:
		return newError(http.StatusBadRequest, "bad_request",
			"send either \"thread\" (the server keeps the turns) or \"history\" (you send them), not both")
	case strings.TrimSpace(req.Thread) == "", len(req.Thread) > maxThreadName,
		strings.ContainsFunc(req.Thread, func(r rune) bool { return r < ' ' || r == 0x7f }):
		return newError(http.StatusBadRequest, "bad_request",
			"thread must be a name of 1 to 200 bytes without control characters")
	}
	return nil
}
