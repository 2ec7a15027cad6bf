// Tests of the WebSocket mode against a small pub/sub server on 127.0.0.1 that publishes
// {"seq":N,"server":ID} every 10 ms and restarts once: the port closes for a while, half the
// clients get a close frame and half a reset, and the new server has another id.
package main

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

type wsHub struct {
	mu        sync.Mutex
	addr      string
	srv       *http.Server
	id        string
	seq       int64
	paused    bool
	upgrades  int                      // connections subscribed since the last restart
	skipFirst bool                     // new connections miss their first message: a late subscription
	conns     map[*websocket.Conn]bool // value: skip the next message
}

func (h *wsHub) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock() // subscribe before the handshake completes: no message can slip in between
	conn, err := (&websocket.Upgrader{}).Upgrade(w, r, nil)
	if err == nil {
		h.conns[conn] = h.skipFirst
		h.upgrades++
	}
	h.mu.Unlock()
	if err != nil {
		return
	}
	for {
		if _, _, err := conn.ReadMessage(); err != nil {
			h.mu.Lock()
			delete(h.conns, conn)
			h.mu.Unlock()
			conn.Close()
			return
		}
	}
}

func (h *wsHub) listen() error {
	addr := h.addr
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	h.addr = ln.Addr().String()
	h.srv = &http.Server{Handler: h}
	go h.srv.Serve(ln)
	return nil
}

func (h *wsHub) publish(stop <-chan struct{}) {
	for {
		select {
		case <-stop:
			return
		case <-time.After(10 * time.Millisecond):
		}
		h.mu.Lock()
		if !h.paused {
			h.seq++
			msg := []byte(fmt.Sprintf(`{"seq":%d,"server":%q}`, h.seq, h.id))
			for c, skip := range h.conns {
				if skip {
					h.conns[c] = false
					continue
				}
				c.SetWriteDeadline(time.Now().Add(time.Second))
				c.WriteMessage(websocket.TextMessage, msg)
			}
		}
		h.mu.Unlock()
	}
}

// waitFor polls until cond holds under the hub's lock, for at most 5 s.
func (h *wsHub) waitFor(cond func() bool) error {
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		h.mu.Lock()
		ok := cond()
		h.mu.Unlock()
		if ok {
			return nil
		}
		if time.Now().After(deadline) {
			return errors.New("timed out waiting for the clients")
		}
	}
}

// restart pauses publishing, closes the listener, ends every connection, reopens the port after
// 100 ms as server id, and resumes publishing once want clients have subscribed again.
func (h *wsHub) restart(id string, skipFirst bool, want int) error {
	h.mu.Lock()
	h.paused = true
	h.mu.Unlock()
	time.Sleep(50 * time.Millisecond) // let the last message reach everyone
	h.srv.Close()                     // the listener; hijacked WebSocket connections stay open
	h.mu.Lock()
	i := 0
	for c := range h.conns {
		if i%2 == 0 {
			c.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseGoingAway, "restart"), time.Now().Add(time.Second))
		} else {
			c.UnderlyingConn().(*net.TCPConn).SetLinger(0)
		}
		c.Close()
		delete(h.conns, c)
		i++
	}
	h.id, h.skipFirst, h.upgrades = id, skipFirst, 0
	h.mu.Unlock()
	time.Sleep(100 * time.Millisecond)
	if err := h.listen(); err != nil {
		return err
	}
	if err := h.waitFor(func() bool { return h.upgrades >= want }); err != nil {
		return err
	}
	h.mu.Lock()
	h.paused = false
	h.mu.Unlock()
	return nil
}

func (h *wsHub) jump(n int64) {
	h.mu.Lock()
	h.seq += n
	h.mu.Unlock()
}

func TestWSRestart(t *testing.T) {
	for _, skipFirst := range []bool{false, true} {
		t.Run("skipFirst="+strconv.FormatBool(skipFirst), func(t *testing.T) {
			const n = 40
			h := &wsHub{id: "A", conns: map[*websocket.Conn]bool{}}
			if err := h.listen(); err != nil {
				t.Fatal(err)
			}
			stop := make(chan struct{})
			go h.publish(stop)
			restarted := make(chan struct{})
			defer func() { <-restarted; close(stop); h.srv.Close() }()
			go func() { // restart once all clients are on A, so a slow machine only makes it later
				defer close(restarted)
				err := h.waitFor(func() bool { return len(h.conns) == n })
				if err == nil {
					time.Sleep(200 * time.Millisecond)
					err = h.restart("B", skipFirst, n)
				}
				if err != nil {
					t.Error(err)
				}
				time.Sleep(300 * time.Millisecond)
				h.jump(3) // every client then sees one gap of 3 missed messages
			}()
			out := filepath.Join(t.TempDir(), "ws.csv")
			cfg := wsConfig{url: "ws://" + h.addr + "/", clients: n, duration: 3 * time.Second,
				ramp: 100 * time.Millisecond, timeout: time.Second, out: out}
			s, err := runWS(cfg, io.Discard)
			if err != nil {
				t.Fatal(err)
			}
			printWSSummary(os.Stderr, s)

			check := func(what string, got, want int64) {
				if got != want {
					t.Errorf("%s = %d, want %d", what, got, want)
				}
			}
			check("connected at end", int64(s.ConnectedAtEnd), n)
			check("clients on B at end", int64(s.ByServer["B"]), n)
			check("reconnects", s.Reconnects, n)
			check("ended by close_1001", s.Ended["close_1001"], n/2)
			check("ended by reset or eof", s.Ended["reset"]+s.Ended["eof"], n/2)
			check("gaps", s.Gaps, n)
			check("gap missed", s.GapMissed, 3*n)
			check("duplicates", s.Duplicates, 0)
			check("unparsable", s.Unparsable, 0)
			lost := int64(0)
			if skipFirst {
				lost = n
			}
			check("lost after reconnect", s.LostAfterReconnect, lost)
			check("reconnects with loss", s.LossyReconnects, lost)
			if s.DialFailures == 0 || s.DowntimeMaxMs < 100 || s.Messages < n*50 {
				t.Errorf("want failed dials, downtime >= 100 ms, many messages: %+v", s)
			}
			lines := readCSV(t, out)
			if len(lines) != n || lines[0][2] != "1" || lines[0][8] != "true" || lines[0][9] != "B" {
				t.Errorf("CSV: %d lines, first %v", len(lines), lines[0])
			}
		})
	}
}
