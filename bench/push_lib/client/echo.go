package main

// Echo: conns connections each send a short text message and wait for it to come back, in a loop,
// for a warm-up period (not counted) and then for the measured period. The same over HTTP/2
// (RFC 8441, h2ws.go): conns WebSockets as streams spread over h2Conns connections.

import (
	"bytes"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

// messageConn is what the echo loop needs of a WebSocket: gorilla's, or a stream of h2ws.go.
type messageConn interface {
	WriteMessage(messageType int, data []byte) error
	ReadMessage() (int, []byte, error)
	Close() error
}

type echoResult struct {
	Conns     int     `json:"conns"`
	H2Conns   int     `json:"h2_connections,omitempty"`
	Open      int     `json:"open"`
	Seconds   float64 `json:"seconds"`
	RoundTrip int     `json:"round_trips"`
	PerSecond float64 `json:"per_second"`
	P50ms     float64 `json:"p50_ms"`
	P99ms     float64 `json:"p99_ms"`
	Errors    int     `json:"errors"`
	Error     string  `json:"error,omitempty"`
}

func runEcho(o options) echoResult {
	var conns []messageConn
	ok, _, err := openAll(o.url, o.echoConns, 1, o.echoConns, 16, func(c *websocket.Conn) { conns = append(conns, c) })
	r := echoResult{Conns: o.echoConns, Open: ok}
	if err != nil {
		r.Error = err.Error()
	}
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	return measureEcho(o, conns, r)
}

// runEchoH2: the same echo over RFC 8441, o.echoConns streams round-robin over o.h2Conns connections.
func runEchoH2(o options) echoResult {
	r := echoResult{Conns: o.echoConns, H2Conns: o.h2Conns}
	var conns []messageConn
	var h2 []*h2conn
	defer func() {
		for _, h := range h2 {
			h.c.Close()
		}
	}()
	for i := 0; i < o.h2Conns; i++ {
		h, err := dialH2(o.h2Addr, 30*time.Second)
		if err != nil {
			r.Error = err.Error()
			return r
		}
		h2 = append(h2, h)
	}
	for i := 0; i < o.echoConns; i++ {
		s, err := h2[i%len(h2)].open(o.h2Addr, "/", 30*time.Second)
		if err != nil {
			r.Error = err.Error()
			break
		}
		conns = append(conns, s)
	}
	r.Open = len(conns)
	if r.Open < o.echoConns {
		return r
	}
	return measureEcho(o, conns, r)
}

func measureEcho(o options, conns []messageConn, r echoResult) echoResult {
	if o.warmup > 0 {
		echoLoop(conns, o.warmup)
	}
	n, lat, errs := echoLoop(conns, o.duration)
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	r.Seconds, r.RoundTrip, r.Errors = o.duration.Seconds(), n, errs
	r.PerSecond = float64(n) / o.duration.Seconds()
	if len(lat) > 0 {
		r.P50ms = ms(lat[len(lat)/2])
		r.P99ms = ms(lat[len(lat)*99/100])
	}
	return r
}

func echoLoop(conns []messageConn, d time.Duration) (int, []time.Duration, int) {
	var mu sync.Mutex
	var wg sync.WaitGroup
	var all []time.Duration
	errs := 0
	stop := time.Now().Add(d)
	for i, c := range conns {
		wg.Add(1)
		go func(i int, c messageConn) {
			defer wg.Done()
			var mine []time.Duration
			bad := 0
			for seq := 0; time.Now().Before(stop); seq++ {
				msg := []byte(fmt.Sprintf("e %d %d ........................", i, seq))
				t := time.Now()
				if err := c.WriteMessage(websocket.TextMessage, msg); err != nil {
					bad++
					break
				}
				_, got, err := c.ReadMessage()
				if err != nil {
					bad++
					break
				}
				if !bytes.Equal(got, msg) {
					bad++
					continue
				}
				mine = append(mine, time.Since(t))
			}
			mu.Lock()
			all = append(all, mine...)
			errs += bad
			mu.Unlock()
		}(i, c)
	}
	wg.Wait()
	return len(all), all, errs
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
