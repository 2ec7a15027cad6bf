package main

// Echo: conns connections each send a short text message and wait for it to come back, in a loop,
// for a warm-up period (not counted) and then for the measured period.

import (
	"bytes"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

type echoResult struct {
	Conns     int     `json:"conns"`
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
	var conns []*websocket.Conn
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

func echoLoop(conns []*websocket.Conn, d time.Duration) (int, []time.Duration, int) {
	var mu sync.Mutex
	var wg sync.WaitGroup
	var all []time.Duration
	errs := 0
	stop := time.Now().Add(d)
	for i, c := range conns {
		wg.Add(1)
		go func(i int, c *websocket.Conn) {
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
