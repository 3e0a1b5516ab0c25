package server

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"time"
)

// Server serves graphrag over HTTP and over stdio. Create it with New.
type Server struct {
	cfg       Config
	handler   http.Handler
	metrics   *metrics
	queries   *queue
	ingestSem chan struct{}
	pauses    *pauses // nil when runs cannot pause (no Config.Checkpoints)
	tokenSum  [sha256.Size]byte
	draining  atomic.Bool
}

// New checks cfg, applies defaults and returns a Server.
func New(cfg Config) (*Server, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	m := newMetrics()
	s := &Server{
		cfg:       cfg,
		metrics:   m,
		queries:   newQueue(cfg.MaxConcurrent, cfg.QueueLength, cfg.QueueWait, m),
		ingestSem: make(chan struct{}, 1),
		tokenSum:  sha256.Sum256([]byte(cfg.Token)),
	}
	if cfg.Checkpoints != nil {
		s.pauses = newPauses(cfg)
		m.pausedGauge = s.pauses.count
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/v1/query", s.handleQuery)
	mux.HandleFunc("/v1/ingest", s.handleIngest)
	mux.HandleFunc("/v1/graph", s.handleGraph)
	mux.HandleFunc("/v1/sources", s.handleSources)
	mux.HandleFunc("/healthz", s.handleHealth)
	mux.HandleFunc("/readyz", s.handleReady)
	mux.HandleFunc("/metrics", s.handleMetrics)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if isUIPath(r.URL.Path) {
			s.handleUI(w, r)
			return
		}
		writeError(w, newError(http.StatusNotFound, "not_found",
			fmt.Sprintf("no endpoint %s; see / (the web page), /v1/query, /v1/ingest, /v1/graph, /v1/sources, /healthz, /readyz, /metrics", r.URL.Path)))
	})
	cop := http.NewCrossOriginProtection()
	for _, o := range cfg.TrustedOrigins {
		if err := cop.AddTrustedOrigin(o); err != nil {
			return nil, fmt.Errorf("server: trusted origin %q: %w", o, err)
		}
	}
	s.handler = s.instrument(s.checkHost(s.crossOrigin(cop, s.authenticate(mux))))
	return s, nil
}

// Handler returns the HTTP handler with every endpoint, middleware
// included: use it to mount graphrag in another server or in tests.
func (s *Server) Handler() http.Handler { return s.handler }

// ListenAndServe listens on Config.Addr and serves until ctx is cancelled,
// then shuts down gracefully: it stops accepting connections, lets
// in-flight requests finish for up to Config.ShutdownTimeout, then closes
// the rest (cancelling their runs). It returns nil after a clean shutdown.
func (s *Server) ListenAndServe(ctx context.Context) error {
	ln, err := net.Listen("tcp", s.cfg.Addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w (is another graphrag serve running? pick another address)", s.cfg.Addr, err)
	}
	return s.Serve(ctx, ln)
}

// Serve is ListenAndServe on a listener of the caller's; it closes ln.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	log := s.cfg.Logger
	if s.cfg.Token == "" && !isLoopbackAddr(ln.Addr().String()) {
		log.Warn("serving on a non-loopback address without a bearer token: anyone who can reach it can query your files", "addr", ln.Addr().String())
	}
	srv := &http.Server{
		Handler:           s.handler,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       time.Minute,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
		// No WriteTimeout: streams last as long as their run, which
		// Config.Timeout bounds.
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	log.Info("graphrag serve listening", "addr", ln.Addr().String())

	select {
	case err := <-errc:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	s.draining.Store(true)
	log.Info("shutting down: waiting for in-flight requests", "deadline", s.cfg.ShutdownTimeout)
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), s.cfg.ShutdownTimeout)
	defer cancel()
	err := srv.Shutdown(sctx)
	<-errc // http.ErrServerClosed
	if err != nil {
		_ = srv.Close()
		return fmt.Errorf("shutdown: in-flight requests did not finish within %s and were cut off: %w", s.cfg.ShutdownTimeout, err)
	}
	log.Info("shut down cleanly")
	return nil
}

// instrument counts every response by path and status.
func (s *Server) instrument(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sw := &statusWriter{ResponseWriter: w}
		start := time.Now()
		defer func() {
			code := sw.code
			if code == 0 {
				code = http.StatusOK
				if r.Context().Err() != nil {
					code = statusClientClosed
				}
			}
			s.metrics.request(r.URL.Path, code)
			s.cfg.Logger.Debug("request", "method", r.Method, "path", r.URL.Path, "code", code, "duration", time.Since(start))
		}()
		next.ServeHTTP(sw, r)
	})
}

// checkHost refuses Host headers outside Config.AllowedHosts: a web page
// that rebinds its DNS name to 127.0.0.1 cannot reach a loopback server.
func (s *Server) checkHost(next http.Handler) http.Handler {
	if len(s.cfg.AllowedHosts) == 0 {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host := r.Host
		if h, _, err := net.SplitHostPort(host); err == nil {
			host = h
		}
		host = strings.Trim(host, "[]")
		if !slices.ContainsFunc(s.cfg.AllowedHosts, func(a string) bool { return strings.EqualFold(a, host) }) {
			writeError(w, newError(http.StatusForbidden, "forbidden_host",
				fmt.Sprintf("host %q is not allowed; use http://127.0.0.1 or http://localhost, or add the host to the server's allowed hosts", r.Host)))
			return
		}
		next.ServeHTTP(w, r)
	})
}

// crossOrigin refuses state-changing requests that a browser sends from
// another site (Sec-Fetch-Site, or an Origin that is not the Host): a web
// page must not be able to make a local server query or ingest.
func (s *Server) crossOrigin(cop *http.CrossOriginProtection, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := cop.Check(r); err != nil {
			writeError(w, newError(http.StatusForbidden, "cross_origin",
				"cross-origin browser requests are refused; add the page's origin to the server's trusted origins to allow it"))
			return
		}
		next.ServeHTTP(w, r)
	})
}

// authenticate requires the bearer token, when one is configured, on every
// path but the health checks and the page's static files.
func (s *Server) authenticate(next http.Handler) http.Handler {
	if s.cfg.Token == "" {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/healthz" || r.URL.Path == "/readyz" || isUIPath(r.URL.Path) {
			next.ServeHTTP(w, r)
			return
		}
		got, ok := bearerToken(r.Header.Get("Authorization"))
		if !ok {
			w.Header().Set("WWW-Authenticate", `Bearer realm="graphrag"`)
			writeError(w, newError(http.StatusUnauthorized, "unauthorized",
				"this server needs a bearer token: send the header \"Authorization: Bearer <token>\""))
			return
		}
		if !s.tokenOK(got) {
			w.Header().Set("WWW-Authenticate", `Bearer realm="graphrag", error="invalid_token"`)
			writeError(w, newError(http.StatusUnauthorized, "unauthorized", "the bearer token is wrong"))
			return
		}
		next.ServeHTTP(w, r)
	})
}

// bearerToken takes the token from an Authorization header. The scheme
// is case-insensitive (RFC 9110, section 11.1): "bearer" and "BEARER" work
// as "Bearer" does.
func bearerToken(header string) (string, bool) {
	scheme, token, ok := strings.Cut(strings.TrimSpace(header), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	return strings.TrimSpace(token), true
}

// tokenOK reports whether token is the configured one. Hashing first makes
// the comparison constant-time in the token's length too.
func (s *Server) tokenOK(token string) bool {
	sum := sha256.Sum256([]byte(token))
	return subtle.ConstantTimeCompare(sum[:], s.tokenSum[:]) == 1
}

// allowMethod answers 405 with Allow unless r.Method is one of methods.
func allowMethod(w http.ResponseWriter, r *http.Request, methods ...string) bool {
	if slices.Contains(methods, r.Method) {
		return true
	}
	w.Header().Set("Allow", strings.Join(methods, ", "))
	writeError(w, newError(http.StatusMethodNotAllowed, "method_not_allowed",
		fmt.Sprintf("%s %s is not supported; use %s", r.Method, r.URL.Path, strings.Join(methods, " or "))))
	return false
}

// acquire takes a slot of sem without waiting; false means it is full.
func (s *Server) acquire(sem chan struct{}) bool {
	select {
	case sem <- struct{}{}:
		return true
	default:
		return false
	}
}

func release(sem chan struct{}) { <-sem }
