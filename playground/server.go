//go:build !js

package playground

import (
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"path"
	"strings"
)

//go:embed static
var staticFiles embed.FS

// Server is the playground over HTTP: the embedded page at / and the API
// under /api/. It implements http.Handler.
type Server struct {
	api    *API
	files  fs.FS
	static http.Handler
}

// crossOrigin refuses the API's non-safe requests that a browser marks as
// coming from another site (Sec-Fetch-Site) or whose Origin is not the
// Host: a page elsewhere may send a "simple" POST (Content-Type
// text/plain) without the user's knowledge, and it must not be computed.
var crossOrigin = http.NewCrossOriginProtection()

// New returns a playground server with the given limits.
func New(cfg Config) *Server {
	static, _ := fs.Sub(staticFiles, "static")
	return &Server{api: NewAPI(cfg), files: static, static: noCache(http.FileServerFS(static))}
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("X-Content-Type-Options", "nosniff")
	if !s.api.cfg.AllowAnyHost {
		if local, ok := loopbackConn(r); ok && !loopbackHost(r.Host) {
			open := ""
			if local != nil {
				open = fmt.Sprintf(" (open http://%s/)", local)
			}
			writeReply(w, errorReply(&apiError{Status: statusForbidden, Message: fmt.Sprintf(
				"forbidden host %q: the playground listens on loopback and answers only requests addressed to localhost, 127.0.0.1 or [::1]%s; "+
					"this keeps other web sites from reaching it through DNS rebinding (brasp serve --addr exposes it on another address)", r.Host, open)}))
			return
		}
	}
	if r.URL.Path != "/api" && !strings.HasPrefix(r.URL.Path, "/api/") {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			writeReply(w, errorReply(&apiError{Status: statusMethodNotAllowed, Message: fmt.Sprintf("method %s not allowed for %s: the page is read with GET", r.Method, r.URL.Path)}))
			return
		}
		name := strings.TrimPrefix(path.Clean(r.URL.Path), "/")
		if name == "" {
			name = "."
		}
		if _, err := fs.Stat(s.files, name); err != nil {
			writeReply(w, errorReply(&apiError{Status: statusNotFound, Message: fmt.Sprintf("no page %s: the playground is at /", r.URL.Path)}))
			return
		}
		s.static.ServeHTTP(w, r)
		return
	}
	if err := crossOrigin.Check(r); err != nil {
		writeReply(w, errorReply(&apiError{Status: statusForbidden, Message: fmt.Sprintf(
			"forbidden cross-origin request (Origin %q, Sec-Fetch-Site %q): the playground computes only what its own page asks, so that another web site cannot spend it", r.Header.Get("Origin"), r.Header.Get("Sec-Fetch-Site"))}))
		return
	}
	var body []byte
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		max := s.api.MaxBody(r.URL.Path)
		data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, max))
		if err != nil {
			var mbe *http.MaxBytesError
			if errors.As(err, &mbe) {
				writeReply(w, errorReply(tooLarge(max)))
				return
			}
			writeReply(w, errorReply(&apiError{Status: statusBadRequest, Message: "cannot read the request body: " + err.Error()}))
			return
		}
		body = data
	}
	writeReply(w, s.api.Call(r.Context(), r.Method, r.URL.Path, body))
}

// writeReply writes an API reply as an HTTP response.
func writeReply(w http.ResponseWriter, r *Reply) {
	w.Header().Set("Content-Type", r.ContentType)
	if r.Filename != "" {
		w.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", r.Filename))
	}
	if r.Status == statusMethodNotAllowed && w.Header().Get("Allow") == "" {
		w.Header().Set("Allow", "GET, POST")
	}
	w.WriteHeader(r.Status)
	w.Write(r.Body)
}

// loopbackConn reports whether r reached the server on a loopback address
// (local is that address), or without a TCP connection the server knows
// of (ServeHTTP called directly, a Unix socket; local is nil).
func loopbackConn(r *http.Request) (local net.Addr, ok bool) {
	addr, _ := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	tcp, isTCP := addr.(*net.TCPAddr)
	if !isTCP {
		return nil, true
	}
	return tcp, tcp.IP.IsLoopback()
}

// loopbackHost reports whether the Host header host names a loopback
// host: localhost, or a loopback IP address, with or without a port.
func loopbackHost(host string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	} else {
		host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func noCache(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-cache")
		h.ServeHTTP(w, r)
	})
}
