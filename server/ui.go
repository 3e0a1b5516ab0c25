package server

import (
	"embed"
	"net/http"
	"path"
)

// The page is three static files, embedded: no CDN, no build step, and it
// works offline. It holds no data: what it shows comes from the API, with
// the bearer token the user types (kept in the tab's sessionStorage).
//
//go:embed ui/index.html ui/app.js ui/style.css
var uiFiles embed.FS

// uiCSP is the page's Content-Security-Policy: its own scripts, styles and
// API only; no inline code, no frames, no form posts elsewhere.
const uiCSP = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; " +
	"img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// isUIPath reports whether p is one of the page's static files, which need
// no token (they hold no data; the API calls they make do).
func isUIPath(p string) bool {
	switch p {
	case "/", "/index.html", "/ui/app.js", "/ui/style.css":
		return true
	}
	return false
}

// handleUI serves the page at / and its assets under /ui/.
func (s *Server) handleUI(w http.ResponseWriter, r *http.Request) {
	if !allowMethod(w, r, http.MethodGet, http.MethodHead) {
		return
	}
	name := "ui/index.html"
	ctype := "text/html; charset=utf-8"
	switch r.URL.Path {
	case "/ui/app.js":
		name, ctype = "ui/app.js", "text/javascript; charset=utf-8"
	case "/ui/style.css":
		name, ctype = "ui/style.css", "text/css; charset=utf-8"
	}
	body, err := uiFiles.ReadFile(path.Clean(name))
	if err != nil { // cannot happen: the files are embedded
		writeError(w, newError(http.StatusInternalServerError, "internal", err.Error()))
		return
	}
	h := w.Header()
	h.Set("Content-Type", ctype)
	h.Set("Content-Security-Policy", uiCSP)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cross-Origin-Opener-Policy", "same-origin")
	h.Set("Cache-Control", "no-cache")
	if r.Method == http.MethodHead {
		return
	}
	_, _ = w.Write(body)
}
