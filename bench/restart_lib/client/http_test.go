// Tests of the HTTP mode against small servers on 127.0.0.1: net/http's automatic retry is really
// off, a restart (connections reset, a gap with the port closed, a new served_by) shows up in the
// counts, and outcomes, served_by from the body, https with -insecure and -unix work.
package main

import (
	"bufio"
	"encoding/csv"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// hangUpServer answers the first request on each connection and, on the second, reads it and
// closes the connection without answering (with a reset when rst). It counts connections and
// notes requests that carried a body or body headers.
type hangUpServer struct {
	ln         net.Listener
	conns      atomic.Int32
	bodyHeader atomic.Int32
}

func startHangUpServer(t *testing.T, rst bool) *hangUpServer {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &hangUpServer{ln: ln}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			s.conns.Add(1)
			go s.serve(c, rst)
		}
	}()
	return s
}

func (s *hangUpServer) serve(c net.Conn, rst bool) {
	defer c.Close()
	br := bufio.NewReader(c)
	for n := 1; ; n++ {
		req, err := http.ReadRequest(br)
		if err != nil {
			return
		}
		if req.Header.Get("Content-Length") != "" || len(req.TransferEncoding) > 0 || req.ContentLength != 0 {
			s.bodyHeader.Add(1)
		}
		io.Copy(io.Discard, req.Body)
		if n > 1 {
			if rst {
				c.(*net.TCPConn).SetLinger(0)
			}
			return
		}
		io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Length: 3\r\nX-Served-By: raw\r\n\r\nok\n")
	}
}

func TestNetHTTPRetriesButClientDoesNot(t *testing.T) {
	for _, tc := range []struct {
		rst  bool
		want string
	}{{false, "eof"}, {true, "reset"}} {
		t.Run(tc.want, func(t *testing.T) {
			// Control: a plain GET is replayable, so net/http re-sends it on a new connection.
			s := startHangUpServer(t, tc.rst)
			url := "http://" + s.ln.Addr().String() + "/"
			tr := &http.Transport{}
			defer tr.CloseIdleConnections()
			for i := 0; i < 2; i++ {
				resp, err := (&http.Client{Transport: tr}).Get(url)
				if err != nil {
					t.Fatalf("control request %d: %v", i+1, err)
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
			if got := s.conns.Load(); got != 2 {
				t.Fatalf("control: want the second GET retried on a 2nd connection, server saw %d", got)
			}

			// The client: the same hang-up must surface as a failure, on one connection.
			s = startHangUpServer(t, tc.rst)
			c := newHTTPClient(httpConfig{url: "http://" + s.ln.Addr().String() + "/", timeout: 2 * time.Second})
			defer c.tr.CloseIdleConnections()
			if o, served, n := c.do(); o != "ok" || served != "raw" || n != 1 {
				t.Fatalf("first request: %s %q attempts %d", o, served, n)
			}
			if o, _, n := c.do(); o != tc.want || n != 1 {
				t.Fatalf("second request: outcome %s attempts %d, want %s after 1", o, n, tc.want)
			}
			if got := s.conns.Load(); got != 1 {
				t.Fatalf("client retried: server saw %d connections", got)
			}
			if got := s.bodyHeader.Load(); got != 0 {
				t.Fatalf("%d requests carried a body or Content-Length/Transfer-Encoding", got)
			}
		})
	}
}

// restartable is an HTTP server that can be stopped (every connection reset) and started again
// on the same address with another served_by value.
type restartable struct {
	addr  string
	mu    sync.Mutex
	srv   *http.Server
	conns map[net.Conn]bool
}

// idHandler names the server by id: in an X-Served-By header on /header, in the body's first
// line (with spaces around and longer than 40 bytes) on /body.
func idHandler(id string) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/header", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("X-Served-By", id)
		io.WriteString(w, "hello\n")
	})
	mux.HandleFunc("/body", func(w http.ResponseWriter, _ *http.Request) {
		io.WriteString(w, "  "+id+" "+strings.Repeat("x", 60)+"\nsecond line\n")
	})
	return mux
}

func (r *restartable) start(id string) error {
	addr := r.addr
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	r.addr = ln.Addr().String()
	srv := &http.Server{Handler: idHandler(id), ConnState: func(c net.Conn, st http.ConnState) {
		r.mu.Lock()
		defer r.mu.Unlock()
		if st == http.StateNew {
			r.conns[c] = true
		} else if st == http.StateClosed || st == http.StateHijacked {
			delete(r.conns, c)
		}
	}}
	r.mu.Lock()
	r.srv, r.conns = srv, map[net.Conn]bool{}
	r.mu.Unlock()
	go srv.Serve(ln)
	return nil
}

func (r *restartable) stop() {
	r.mu.Lock()
	for c := range r.conns {
		c.(*net.TCPConn).SetLinger(0)
	}
	srv := r.srv
	r.mu.Unlock()
	srv.Close()
}

func readCSV(t *testing.T, path string) [][]string {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.Comment = '#'
	recs, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return recs[1:] // without the header
}

func TestHTTPRestart(t *testing.T) {
	srv := &restartable{}
	if err := srv.start("A"); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "events.csv")
	go func() {
		time.Sleep(400 * time.Millisecond)
		srv.stop()
		time.Sleep(150 * time.Millisecond) // port closed: dials are refused
		if err := srv.start("B"); err != nil {
			t.Error(err)
		}
	}()
	cfg := httpConfig{url: "http://" + srv.addr + "/header", clients: 8, duration: 1200 * time.Millisecond, timeout: time.Second, out: out}
	s, err := runHTTP(cfg, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.stop()
	printHTTPSummary(os.Stderr, s)

	lines := readCSV(t, out)
	if int64(len(lines)) != s.Requests {
		t.Errorf("CSV has %d lines, summary counts %d requests", len(lines), s.Requests)
	}
	var sum int64
	for o, n := range s.Outcomes {
		sum += n
		if o != "ok" && o != "reset" && o != "eof" && o != "refused" {
			t.Errorf("unexpected outcome %s x%d", o, n)
		}
	}
	if sum != s.Requests || s.Failures != s.Requests-s.Outcomes["ok"] {
		t.Errorf("outcomes add up to %d, failures %d, requests %d", sum, s.Failures, s.Requests)
	}
	if s.Outcomes["ok"] < 100 || s.Outcomes["refused"] == 0 || s.Outcomes["reset"]+s.Outcomes["eof"] == 0 {
		t.Errorf("want many ok, some refused and some reset/eof: %v", s.Outcomes)
	}
	if s.Retries != 0 {
		t.Errorf("net/http retried %d requests", s.Retries)
	}
	if len(s.ServedBy) != 2 || s.ServedBy[0].ServedBy != "A" || s.ServedBy[1].ServedBy != "B" {
		t.Fatalf("served_by: %+v", s.ServedBy)
	}
	a, b := s.ServedBy[0], s.ServedBy[1]
	if a.Count+b.Count != s.Outcomes["ok"] || a.FirstMs > 100 || a.LastMs >= b.FirstMs || b.LastMs < 900 {
		t.Errorf("served_by times: %+v %+v", a, b)
	}
}

func TestHTTPOutcomesTLSAndUnix(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/slow", func(w http.ResponseWriter, _ *http.Request) { time.Sleep(300 * time.Millisecond) })
	mux.HandleFunc("/slowbody", func(w http.ResponseWriter, _ *http.Request) {
		io.WriteString(w, "start\n")
		w.(http.Flusher).Flush()
		time.Sleep(300 * time.Millisecond)
	})
	mux.HandleFunc("/503", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(503) })
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go http.Serve(ln, mux)
	defer ln.Close()
	closed, _ := net.Listen("tcp", "127.0.0.1:0")
	closed.Close()

	for path, want := range map[string]string{
		"http://" + ln.Addr().String() + "/slow":     "timeout",
		"http://" + ln.Addr().String() + "/slowbody": "timeout",
		"http://" + ln.Addr().String() + "/503":      "http_503",
		"http://" + closed.Addr().String() + "/":     "refused",
	} {
		c := newHTTPClient(httpConfig{url: path, timeout: 100 * time.Millisecond})
		if got, _, _ := c.do(); got != want {
			t.Errorf("%s: outcome %s, want %s", path, got, want)
		}
	}

	// https: -insecure skips the certificate check, and it stays HTTP/1.1 even where h2 is offered.
	tlsSrv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Served-By", r.Proto)
	}))
	tlsSrv.EnableHTTP2 = true
	tlsSrv.StartTLS()
	defer tlsSrv.Close()
	if got, served, _ := newHTTPClient(httpConfig{url: tlsSrv.URL, timeout: time.Second, insecure: true}).do(); got != "ok" || served != "HTTP/1.1" {
		t.Errorf("https -insecure: %s served by %q", got, served)
	}
	if got, _, _ := newHTTPClient(httpConfig{url: tlsSrv.URL, timeout: time.Second}).do(); !strings.HasPrefix(got, "other:") {
		t.Errorf("https without -insecure: %s", got)
	} else {
		t.Logf("https without -insecure: %s", got)
	}

	// served_by from the body's first line (trimmed, cut to 40 bytes), over a unix socket.
	sock := filepath.Join(t.TempDir(), "s.sock")
	uln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	go http.Serve(uln, idHandler("pid-7"))
	defer uln.Close()
	out := filepath.Join(t.TempDir(), "events.csv")
	s, err := runHTTP(httpConfig{url: "http://localhost/body", unix: sock, clients: 2, duration: 200 * time.Millisecond, timeout: time.Second, out: out}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	want := ("pid-7 " + strings.Repeat("x", 60))[:40]
	if s.Outcomes["ok"] != s.Requests || len(s.ServedBy) != 1 || s.ServedBy[0].ServedBy != want {
		t.Errorf("unix: %v %+v", s.Outcomes, s.ServedBy)
	}
	if got := readCSV(t, out)[0][4]; got != want {
		t.Errorf("CSV served_by: %v", readCSV(t, out)[0])
	}
}
