package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"time"
)

// IngestResponse is the answer to an ingest.
type IngestResponse struct {
	// Paths are the paths ingested, cleaned.
	Paths      []string `json:"paths"`
	DurationMS float64  `json:"duration_ms"`
	// Summary is what Config.Ingest returned.
	Summary any `json:"summary"`
}

var errIngestBusy = newError(http.StatusTooManyRequests, "too_many_requests",
	"an ingest is already running; retry when it has finished")

// checkPaths resolves the requested paths against Config.IngestRoots. No
// paths means every root. A path must be absolute and stay inside a root
// both as written and after resolving symlinks; it is refused before its
// existence is told, so the answer never reveals what exists elsewhere.
func (s *Server) checkPaths(paths []string) ([]string, error) {
	if s.cfg.Ingest == nil {
		return nil, newError(http.StatusNotImplemented, "not_configured", "ingest is not available on this server")
	}
	if len(s.cfg.IngestRoots) == 0 {
		return nil, newError(http.StatusForbidden, "forbidden",
			"ingest is disabled: the server allows no directories; restart graphrag serve with the directories to allow")
	}
	if len(paths) == 0 {
		return append([]string(nil), s.cfg.IngestRoots...), nil
	}
	out := make([]string, 0, len(paths))
	for _, p := range paths {
		if strings.ContainsRune(p, 0) {
			return nil, newError(http.StatusBadRequest, "bad_request",
				fmt.Sprintf("path %q contains a NUL byte, which no file name can hold", p))
		}
		if !filepath.IsAbs(p) {
			return nil, newError(http.StatusBadRequest, "bad_request",
				fmt.Sprintf("path %q must be absolute (the server's working directory means nothing to a client)", p))
		}
		clean := filepath.Clean(p)
		resolved, exists := resolve(clean)
		if !s.insideRoot(clean, false) || !s.insideRoot(resolved, true) {
			return nil, s.outside(p)
		}
		if !exists {
			return nil, newError(http.StatusNotFound, "not_found", fmt.Sprintf("path %q does not exist", p))
		}
		out = append(out, clean)
	}
	return out, nil
}

func (s *Server) outside(p string) error {
	return newError(http.StatusForbidden, "forbidden",
		fmt.Sprintf("path %q is outside the directories this server may ingest (%s)", p, strings.Join(s.cfg.IngestRoots, ", ")))
}

// resolve follows the symlinks in p. For a path that does not exist it
// resolves the deepest ancestor that does and appends the rest, so that a
// missing file behind a symlink leading out of a root is refused like an
// existing one: answers never reveal what exists outside the roots.
func resolve(p string) (resolved string, exists bool) {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r, true
	}
	rest := ""
	for dir := p; ; {
		parent := filepath.Dir(dir)
		rest = filepath.Join(filepath.Base(dir), rest)
		if parent == dir {
			return p, false
		}
		dir = parent
		if r, err := filepath.EvalSymlinks(dir); err == nil {
			return filepath.Join(r, rest), false
		}
	}
}

// insideRoot reports whether p is inside one of the roots. With resolved,
// p has had its symlinks followed and is compared with the roots' own
// resolved paths.
func (s *Server) insideRoot(p string, resolved bool) bool {
	for _, root := range s.cfg.IngestRoots {
		if resolved {
			r, err := filepath.EvalSymlinks(root)
			if err != nil {
				continue
			}
			root = r
		}
		rel, err := filepath.Rel(root, p)
		if err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel) {
			return true
		}
	}
	return false
}

// ingest checks the paths and runs Config.Ingest on them, one at a time.
func (s *Server) ingest(ctx context.Context, req IngestRequest) (IngestResponse, error) {
	paths, err := s.checkPaths(req.Paths)
	if err != nil {
		return IngestResponse{}, err
	}
	if !s.acquire(s.ingestSem) {
		return IngestResponse{}, errIngestBusy
	}
	defer release(s.ingestSem)
	ctx, cancel := context.WithTimeoutCause(ctx, s.cfg.IngestTimeout,
		fmt.Errorf("ingest did not finish within %s: %w", s.cfg.IngestTimeout, context.DeadlineExceeded))
	defer cancel()
	start := time.Now()
	sum, err := s.cfg.Ingest(ctx, paths)
	if err != nil {
		if cause := context.Cause(ctx); cause != nil && errors.Is(cause, context.DeadlineExceeded) {
			err = cause
		}
		return IngestResponse{}, fmt.Errorf("ingest: %w", err)
	}
	s.cfg.Logger.Info("ingested", "paths", paths, "duration", time.Since(start))
	return IngestResponse{Paths: paths, DurationMS: ms(time.Since(start)), Summary: sum}, nil
}

// handleIngest serves POST /v1/ingest.
func (s *Server) handleIngest(w http.ResponseWriter, r *http.Request) {
	if !allowMethod(w, r, http.MethodPost) {
		return
	}
	var req IngestRequest
	if err := s.decodeBody(w, r, &req); err != nil {
		writeError(w, err)
		return
	}
	resp, err := s.ingest(r.Context(), req)
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, resp)
}

// diagram renders the graph in format "mermaid" (default) or "dot".
func (s *Server) diagram(format string) (GraphResponse, error) {
	if s.cfg.Diagram == nil {
		return GraphResponse{}, newError(http.StatusNotImplemented, "not_configured", "this server has no graph diagram")
	}
	switch strings.ToLower(format) {
	case "", "mermaid":
		return GraphResponse{Format: "mermaid", Diagram: s.cfg.Diagram.Mermaid()}, nil
	case "dot":
		return GraphResponse{Format: "dot", Diagram: s.cfg.Diagram.DOT()}, nil
	}
	return GraphResponse{}, newError(http.StatusBadRequest, "bad_request",
		fmt.Sprintf("format %q is not supported; use \"mermaid\" or \"dot\"", format))
}

// handleGraph serves GET /v1/graph as text: Mermaid, or DOT with ?format=dot.
func (s *Server) handleGraph(w http.ResponseWriter, r *http.Request) {
	if !allowMethod(w, r, http.MethodGet, http.MethodHead) {
		return
	}
	g, err := s.diagram(r.URL.Query().Get("format"))
	if err != nil {
		writeError(w, err)
		return
	}
	ct := "text/plain; charset=utf-8"
	if g.Format == "dot" {
		ct = "text/vnd.graphviz; charset=utf-8"
	}
	w.Header().Set("Content-Type", ct)
	_, _ = w.Write([]byte(g.Diagram))
}

// handleHealth serves GET /healthz: the process is up.
func (s *Server) handleHealth(w http.ResponseWriter, r *http.Request) {
	if !allowMethod(w, r, http.MethodGet, http.MethodHead) {
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

// handleReady serves GET /readyz: the store answers and the server is not
// shutting down.
func (s *Server) handleReady(w http.ResponseWriter, r *http.Request) {
	if !allowMethod(w, r, http.MethodGet, http.MethodHead) {
		return
	}
	if s.draining.Load() {
		writeError(w, newError(http.StatusServiceUnavailable, "shutting_down", "the server is shutting down"))
		return
	}
	if s.cfg.Ready != nil {
		ctx, cancel := context.WithTimeout(r.Context(), 5*time.Second)
		defer cancel()
		if err := s.cfg.Ready(ctx); err != nil {
			s.cfg.Logger.Warn("not ready", "error", err)
			// /readyz needs no token, and a store's error names its
			// database, user and host: only an authenticated caller sees it.
			msg := "the store cannot be reached; the server's log says why"
			if s.cfg.Token != "" {
				if tok, ok := bearerToken(r.Header.Get("Authorization")); ok && s.tokenOK(tok) {
					msg = "the store cannot be reached: " + err.Error()
				}
			}
			writeError(w, newError(http.StatusServiceUnavailable, "not_ready", msg))
			return
		}
	}
	writeJSON(w, http.StatusOK, map[string]string{"status": "ready"})
}
