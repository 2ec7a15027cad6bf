package main

// A reference server (pushclient -serve 127.0.0.1:PORT): the bench app written directly on Go's
// net/http and gorilla/websocket, a goroutine per socket. Not a ceiling, a yardstick: what this
// client measures on this machine for a small compiled server with no Rack in between.
//   GET /          "push bench" (readiness)
//   WebSocket /    echoes every message
//   POST /publish  writes the body to every socket (one encoded frame, written in turn)

import (
	"io"
	"net/http"
	"sync"

	"github.com/gorilla/websocket"
)

type socket struct {
	mu   sync.Mutex // one writer at a time: echo and broadcast
	conn *websocket.Conn
}

func (s *socket) write(m *websocket.PreparedMessage) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.conn.WritePreparedMessage(m)
}

func serve(addr string) error {
	var mu sync.RWMutex
	sockets := map[*socket]struct{}{}
	upgrader := websocket.Upgrader{}
	http.HandleFunc("/publish", func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		m, _ := websocket.NewPreparedMessage(websocket.TextMessage, body)
		mu.RLock()
		for s := range sockets {
			s.write(m)
		}
		mu.RUnlock()
		io.WriteString(w, "published\n")
	})
	http.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if !websocket.IsWebSocketUpgrade(r) {
			io.WriteString(w, "push bench\n")
			return
		}
		c, err := upgrader.Upgrade(w, r, nil)
		if err != nil {
			return
		}
		s := &socket{conn: c}
		mu.Lock()
		sockets[s] = struct{}{}
		mu.Unlock()
		for {
			kind, data, err := c.ReadMessage()
			if err != nil {
				break
			}
			s.mu.Lock()
			err = c.WriteMessage(kind, data)
			s.mu.Unlock()
			if err != nil {
				break
			}
		}
		mu.Lock()
		delete(sockets, s)
		mu.Unlock()
		c.Close()
	})
	return http.ListenAndServe(addr, nil)
}
