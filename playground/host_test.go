package playground

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// hostReq sends GET path to h with the given Host header, as if it had
// arrived on the local address local (nil: no connection), and returns
// the status and the error message of a JSON error answer.
func hostReq(t *testing.T, h http.Handler, host, path string, local net.Addr) (int, string) {
	t.Helper()
	req := httptest.NewRequest("GET", path, nil)
	req.Host = host
	if local != nil {
		req = req.WithContext(context.WithValue(req.Context(), http.LocalAddrContextKey, local))
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	var e apiError
	if rec.Code != http.StatusOK {
		if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil {
			t.Fatalf("Host %q: status %d, not a JSON error: %q", host, rec.Code, rec.Body.String())
		}
	}
	return rec.Code, e.Message
}

var (
	badHosts  = []string{"evil.example", "evil.example:8080", "localhost.evil.example", "127.0.0.1.evil.example:8080", "[::2]:80", "10.0.0.1:8080", ""}
	goodHosts = []string{"localhost:8080", "127.0.0.1:1234", "[::1]:80", "localhost", "LocalHost:8080", "127.0.0.1", "127.1.2.3:8080", "[::1]"}
)

// TestHostCheck: on loopback, only loopback Host names are answered (DNS
// rebinding); on another address, or with AllowAnyHost, every Host is.
func TestHostCheck(t *testing.T) {
	s := New(Config{})
	loop4 := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080}
	loop6 := &net.TCPAddr{IP: net.IPv6loopback, Port: 8080}
	for _, local := range []net.Addr{nil, loop4, loop6} {
		for _, host := range badHosts {
			for _, path := range []string{"/api/features", "/", "/app.js"} {
				code, msg := hostReq(t, s, host, path, local)
				if code != http.StatusForbidden || !strings.Contains(msg, "DNS rebinding") || !strings.Contains(msg, "forbidden host") {
					t.Errorf("on %v, Host %q, GET %s: %d %q, want 403 naming DNS rebinding", local, host, path, code, msg)
				}
				if local != nil && !strings.Contains(msg, "http://"+local.String()+"/") {
					t.Errorf("on %v, Host %q: the message %q does not say where to open the page", local, host, msg)
				}
			}
		}
		for _, host := range goodHosts {
			if code, msg := hostReq(t, s, host, "/api/features", local); code != http.StatusOK {
				t.Errorf("on %v, Host %q: %d %q, want 200", local, host, code, msg)
			}
		}
	}
	// Listening on another address exposes the playground on purpose.
	lan := &net.TCPAddr{IP: net.IPv4(192, 168, 1, 5), Port: 8080}
	for _, host := range append(badHosts, goodHosts...) {
		if code, msg := hostReq(t, s, host, "/api/features", lan); code != http.StatusOK {
			t.Errorf("on %v, Host %q: %d %q, want 200", lan, host, code, msg)
		}
	}
	any := New(Config{AllowAnyHost: true})
	for _, host := range append(badHosts, goodHosts...) {
		for _, local := range []net.Addr{nil, loop4} {
			if code, msg := hostReq(t, any, host, "/api/features", local); code != http.StatusOK {
				t.Errorf("AllowAnyHost, on %v, Host %q: %d %q, want 200", local, host, code, msg)
			}
		}
	}
}

// TestHostCheckServer checks the Host check through a real loopback
// connection, where net/http supplies the local address.
func TestHostCheckServer(t *testing.T) {
	srv := httptest.NewServer(New(Config{}))
	defer srv.Close()
	for host, want := range map[string]int{"": 200, "evil.example": 403, "evil.example:80": 403, "localhost:8080": 200, "[::1]:80": 200} {
		req, err := http.NewRequest("GET", srv.URL+"/api/features", nil)
		if err != nil {
			t.Fatal(err)
		}
		if host != "" { // "": the server's own address, 127.0.0.1:port
			req.Host = host
		}
		res, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != want {
			t.Errorf("Host %q: status %d, want %d", host, res.StatusCode, want)
		}
		if want == 403 && !strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
			t.Errorf("Host %q: Content-Type %q", host, res.Header.Get("Content-Type"))
		}
	}
}

// TestCrossOrigin: a POST that a browser marks as sent by another site
// (Sec-Fetch-Site: cross-site, or an Origin that is not the Host) is
// refused before anything is computed, even as a "simple" text/plain
// request; the page's own requests, and requests without those headers
// (curl, the tests), are answered.
func TestCrossOrigin(t *testing.T) {
	s := New(Config{})
	body := `{"program":"Q_a(i)\nY(i) := Q_a(i)\n","word":"a"}`
	post := func(header map[string]string) (int, string) {
		req := httptest.NewRequest("POST", "/api/run", strings.NewReader(body))
		req.Host = "localhost:8080"
		req.Header.Set("Content-Type", "text/plain")
		for k, v := range header {
			req.Header.Set(k, v)
		}
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		return rec.Code, rec.Body.String()
	}
	for _, h := range []map[string]string{
		{"Origin": "http://evil.example"},
		{"Sec-Fetch-Site": "cross-site"},
		{"Sec-Fetch-Site": "same-site", "Origin": "http://other.localhost:8080"},
		{"Origin": "http://localhost:9999", "Sec-Fetch-Site": "cross-site"},
	} {
		if code, msg := post(h); code != http.StatusForbidden || !strings.Contains(msg, "forbidden cross-origin request") {
			t.Errorf("%v: %d %s, want 403", h, code, msg)
		}
	}
	for _, h := range []map[string]string{
		nil,
		{"Origin": "http://localhost:8080"},
		{"Sec-Fetch-Site": "same-origin", "Origin": "http://localhost:8080"},
		{"Sec-Fetch-Site": "none"},
	} {
		if code, msg := post(h); code != http.StatusOK {
			t.Errorf("%v: %d %s, want 200", h, code, msg)
		}
	}
}
