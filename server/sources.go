package server

import (
	"context"
	"net/http"
	"time"
)

// sourcesTimeout bounds GET /v1/sources: it reads the store's manifest,
// which takes well under a second on a store of a few hundred thousand
// chunks; past this the store is in trouble.
const sourcesTimeout = 30 * time.Second

// handleSources serves GET /v1/sources: what the store holds, as
// Config.Sources reports it (the same report as `graphrag sources --json`).
func (s *Server) handleSources(w http.ResponseWriter, r *http.Request) {
	if !allowMethod(w, r, http.MethodGet, http.MethodHead) {
		return
	}
	if s.cfg.Sources == nil {
		writeError(w, newError(http.StatusNotImplemented, "not_configured", "this server does not report its sources"))
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), sourcesTimeout)
	defer cancel()
	rep, err := s.cfg.Sources(ctx)
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, rep)
}
