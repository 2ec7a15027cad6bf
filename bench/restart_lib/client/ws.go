// WebSocket mode: N clients connect (their first dials spread over -ramp), read text messages
// like {"seq":123,"server":"pid-4242"}, and reconnect at once whenever the server closes or the
// connection breaks (while dials fail: backoff from 10 ms doubling up to 1 s), until the duration
// ends. Per client it counts messages, reconnects, gaps (a seq more than 1 above the previous one
// on the same connection) and messages lost after a reconnect: first seq on the new connection
// - 1 - the highest seq any client had received when the new handshake completed. Writes one CSV
// line per client and prints a summary and a JSON line. seq must come from one counter shared by
// old and new server (the app's pub/sub), or "lost after reconnect" means nothing; reconnects whose
// first seq is below the highest seen are counted as a warning sign of that.
package main

import (
	"context"
	"crypto/tls"
	"encoding/csv"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"slices"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"
)

type wsConfig struct {
	url      string
	clients  int
	duration time.Duration
	ramp     time.Duration
	timeout  time.Duration
	out      string
	unix     string
	insecure bool
	tick     time.Duration
}

// clockSlackMs: a tick published this close after the subscription was in place may have
// crossed it in Redis; it is not counted as lost.
const clockSlackMs = 5

// wsClient holds one client's counters; only its own goroutine touches them until it is done.
type wsClient struct {
	messages, reconnects, dialFailures int64
	gaps, gapMissed, dups, unparsable  int64
	lost, lossyReconnects, seqBehind   int64
	downtimes                          []int64          // µs from losing a connection to the next handshake
	ended                              map[string]int64 // why connections ended: close_NNNN, eof, reset, ...
	connectedAtEnd                     bool
	serverAtEnd                        string        // server id of the last message on the open connection
	tick                               time.Duration // the publisher's beat
}

type wsSummary struct {
	Mode               string           `json:"mode"`
	URL                string           `json:"url"`
	Clients            int              `json:"clients"`
	StartUnixMs        int64            `json:"start_unix_ms"`
	ElapsedS           float64          `json:"elapsed_s"`
	ConnectedAtEnd     int              `json:"connected_at_end"`
	ByServer           map[string]int   `json:"clients_by_server_at_end"`
	Messages           int64            `json:"messages"`
	MaxSeq             int64            `json:"max_seq"`
	Reconnects         int64            `json:"reconnects"`
	DialFailures       int64            `json:"dial_failures"`
	Ended              map[string]int64 `json:"connections_ended_by"`
	DowntimeP50Ms      float64          `json:"reconnect_downtime_p50_ms"`
	DowntimeP99Ms      float64          `json:"reconnect_downtime_p99_ms"`
	DowntimeMaxMs      float64          `json:"reconnect_downtime_max_ms"`
	Gaps               int64            `json:"gaps"`
	GapMissed          int64            `json:"gap_missed_messages"`
	Duplicates         int64            `json:"duplicates"`
	Unparsable         int64            `json:"unparsable"`
	LostAfterReconnect int64            `json:"lost_after_reconnect"`
	LossyReconnects    int64            `json:"reconnects_with_loss"`
	SeqBehind          int64            `json:"reconnects_seq_behind"` // > 0: seq not shared by the servers?
}

const noMessageYet = "(no message yet)"

func wsMain(args []string) error {
	fs := flag.NewFlagSet("ws", flag.ContinueOnError)
	var cfg wsConfig
	fs.StringVar(&cfg.url, "url", "", "WebSocket URL (ws:// or wss://)")
	fs.IntVar(&cfg.clients, "n", 1000, "number of WebSocket clients")
	fs.DurationVar(&cfg.duration, "d", 180*time.Second, "how long to stay connected")
	fs.DurationVar(&cfg.ramp, "ramp", time.Second, "spread the first dials over this long")
	fs.DurationVar(&cfg.timeout, "timeout", 5*time.Second, "dial + handshake timeout")
	fs.StringVar(&cfg.out, "out", "ws.csv", "CSV file written, one line per client")
	fs.StringVar(&cfg.unix, "unix", "", "dial this unix socket instead of the URL's host:port")
	fs.BoolVar(&cfg.insecure, "insecure", false, "skip TLS certificate verification for wss://")
	fs.DurationVar(&cfg.tick, "tick", 100*time.Millisecond, "the publisher's beat, for counting lost ticks by their \"at\" times")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if cfg.url == "" || cfg.clients < 1 {
		return errors.New("ws: -url and -n >= 1 are required")
	}
	s, err := runWS(cfg, os.Stderr)
	if err != nil {
		return err
	}
	printWSSummary(os.Stdout, s)
	return nil
}

// runWS runs the clients, writes cfg.out and returns the summary.
func runWS(cfg wsConfig, log io.Writer) (*wsSummary, error) {
	f, err := os.Create(cfg.out)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	d := &websocket.Dialer{
		NetDialContext:   dialFunc(cfg.unix, cfg.timeout),
		HandshakeTimeout: cfg.timeout,
		TLSClientConfig:  &tls.Config{InsecureSkipVerify: cfg.insecure},
		ReadBufferSize:   4096,
		WriteBufferSize:  1024,
	}
	var maxSeq atomic.Int64
	maxSeq.Store(-1)
	t0 := time.Now()
	end := t0.Add(cfg.duration)
	fmt.Fprintf(log, "client ws: %d clients for %s against %s; start_unix_ms=%d\n", cfg.clients, cfg.duration, cfg.url, t0.UnixMilli())

	clients := make([]*wsClient, cfg.clients)
	var wg sync.WaitGroup
	for i := range clients {
		c := &wsClient{ended: map[string]int64{}, tick: cfg.tick}
		clients[i] = c
		wg.Add(1)
		go func() {
			defer wg.Done()
			time.Sleep(min(time.Duration(i)*cfg.ramp/time.Duration(cfg.clients), time.Until(end)))
			c.run(d, cfg.url, end, &maxSeq)
		}()
	}
	wg.Wait()

	s := &wsSummary{Mode: "ws", URL: cfg.url, Clients: cfg.clients, StartUnixMs: t0.UnixMilli(),
		ElapsedS: round2(time.Since(t0).Seconds()), MaxSeq: maxSeq.Load(), ByServer: map[string]int{}, Ended: map[string]int64{}}
	cw := csv.NewWriter(f)
	fmt.Fprintf(f, "#start_unix_ms=%d\n", t0.UnixMilli())
	cw.Write([]string{"client", "messages", "reconnects", "dial_failures", "gaps", "gap_missed",
		"lost_after_reconnect", "max_downtime_ms", "connected_at_end", "server_at_end"})
	var downtimes []int64
	for i, c := range clients {
		downtimes = append(downtimes, c.downtimes...)
		s.Messages += c.messages
		s.Reconnects += c.reconnects
		s.DialFailures += c.dialFailures
		s.Gaps += c.gaps
		s.GapMissed += c.gapMissed
		s.Duplicates += c.dups
		s.Unparsable += c.unparsable
		s.LostAfterReconnect += c.lost
		s.LossyReconnects += c.lossyReconnects
		s.SeqBehind += c.seqBehind
		for k, v := range c.ended {
			s.Ended[k] += v
		}
		server := ""
		if c.connectedAtEnd {
			s.ConnectedAtEnd++
			server = c.serverAtEnd
			if server == "" {
				server = noMessageYet
			}
			s.ByServer[server]++
		}
		cw.Write([]string{strconv.Itoa(i), strconv.FormatInt(c.messages, 10), strconv.FormatInt(c.reconnects, 10),
			strconv.FormatInt(c.dialFailures, 10), strconv.FormatInt(c.gaps, 10), strconv.FormatInt(c.gapMissed, 10),
			strconv.FormatInt(c.lost, 10), strconv.FormatFloat(ms(slices.Max(append(c.downtimes, 0))), 'f', 2, 64),
			strconv.FormatBool(c.connectedAtEnd), server})
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return nil, err
	}
	if err := f.Close(); err != nil {
		return nil, err
	}
	slices.Sort(downtimes)
	s.DowntimeP50Ms, s.DowntimeP99Ms = ms(pct(downtimes, 50)), ms(pct(downtimes, 99))
	if len(downtimes) > 0 {
		s.DowntimeMaxMs = ms(downtimes[len(downtimes)-1])
	}
	return s, nil
}

// run connects, reads and reconnects until end.
func (c *wsClient) run(d *websocket.Dialer, url string, end time.Time, maxSeq *atomic.Int64) {
	backoff := 10 * time.Millisecond
	connectedBefore := false
	var lostAt time.Time
	for time.Now().Before(end) {
		ctx, cancel := context.WithDeadline(context.Background(), end)
		conn, _, err := d.DialContext(ctx, url, nil)
		cancel()
		if err != nil {
			if time.Now().Before(end) {
				c.dialFailures++
				time.Sleep(min(backoff, time.Until(end)))
				backoff = min(2*backoff, time.Second)
			}
			continue
		}
		backoff = 10 * time.Millisecond
		snap := int64(-1) // highest seq seen by anyone "just before" this reconnect
		if connectedBefore {
			c.reconnects++
			c.downtimes = append(c.downtimes, time.Since(lostAt).Microseconds())
			snap = maxSeq.Load()
		}
		connectedBefore = true
		why := c.read(conn, end, snap, maxSeq)
		if why == "" { // the run is over with this connection still open
			c.connectedAtEnd = true
			conn.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""), time.Now().Add(time.Second))
			conn.Close()
			return
		}
		conn.Close()
		c.ended[why]++
		lostAt = time.Now()
	}
}

// read consumes messages until the connection ends and returns why, or "" when the run ended.
func (c *wsClient) read(conn *websocket.Conn, end time.Time, snap int64, maxSeq *atomic.Int64) string {
	conn.SetReadDeadline(end)
	c.serverAtEnd = ""
	prev := int64(-1)
	subscribedAt := int64(0)
	for {
		_, data, err := conn.ReadMessage()
		if err != nil {
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() && !time.Now().Before(end) {
				return ""
			}
			return wsEndReason(err)
		}
		var m struct {
			Seq        *int64 `json:"seq"`
			Server     string `json:"server"`
			Subscribed string `json:"subscribed"`
			At         int64  `json:"at"` // unix ms: when a tick was published, or when the subscription was in place
		}
		if json.Unmarshal(data, &m) != nil || m.Seq == nil && m.Subscribed == "" {
			c.unparsable++
			continue
		}
		if m.Seq == nil { // the server says it subscribed: what is published from now on must arrive
			if prev < 0 {
				snap = maxSeq.Load()
				subscribedAt = m.At
			}
			continue
		}
		seq := *m.Seq
		c.messages++
		c.serverAtEnd = m.Server
		for cur := maxSeq.Load(); seq > cur && !maxSeq.CompareAndSwap(cur, seq); cur = maxSeq.Load() {
		}
		switch {
		case prev < 0 && subscribedAt > 0 && m.At > 0 && c.tick > 0:
			// By the clocks: the ticks published after the subscription was in place and before
			// this one (the publisher keeps its beat) were lost.
			if missed := (m.At - subscribedAt - clockSlackMs) / c.tick.Milliseconds(); missed > 0 {
				c.lost += missed
				c.lossyReconnects++
			}
		case prev < 0: // first message on this connection
			if snap >= 0 && seq > snap+1 {
				c.lost += seq - snap - 1
				c.lossyReconnects++
			} else if seq < snap {
				c.seqBehind++
			}
		case seq > prev+1:
			c.gaps++
			c.gapMissed += seq - prev - 1
		case seq <= prev:
			c.dups++
		}
		prev = seq
	}
}

// wsEndReason names why a connection ended: close_NNNN for a close frame, else like classify.
func wsEndReason(err error) string {
	var ce *websocket.CloseError
	if errors.As(err, &ce) {
		if ce.Code == websocket.CloseAbnormalClosure { // gorilla's code for EOF without a close frame
			return "eof"
		}
		return "close_" + strconv.Itoa(ce.Code)
	}
	return classify(err)
}

func printWSSummary(w io.Writer, s *wsSummary) {
	fmt.Fprintf(w, "ws: %d clients for %.1f s (%s)\n", s.Clients, s.ElapsedS, s.URL)
	fmt.Fprintf(w, "connected at end: %d of %d; by server:%s\n", s.ConnectedAtEnd, s.Clients, sortedCounts(s.ByServer))
	fmt.Fprintf(w, "messages %d (highest seq %d); gaps on one connection %d (%d messages missed); duplicates %d; unparsable %d\n",
		s.Messages, s.MaxSeq, s.Gaps, s.GapMissed, s.Duplicates, s.Unparsable)
	fmt.Fprintf(w, "reconnects %d (failed dials %d); connections ended by:%s\n", s.Reconnects, s.DialFailures, sortedCounts(s.Ended))
	fmt.Fprintf(w, "reconnect downtime: p50 %.2f ms  p99 %.2f ms  max %.2f ms\n", s.DowntimeP50Ms, s.DowntimeP99Ms, s.DowntimeMaxMs)
	fmt.Fprintf(w, "lost messages after reconnect (0 expected): %d (%d reconnects lost any)\n", s.LostAfterReconnect, s.LossyReconnects)
	if s.SeqBehind > 0 {
		fmt.Fprintf(w, "warning: after %d reconnects the first seq was below the highest seen: is seq shared by old and new server?\n", s.SeqBehind)
	}
	writeJSON(w, s)
}

// sortedCounts formats a map as " key count" pairs, largest count first.
func sortedCounts[V int | int64](m map[string]V) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return m[keys[i]] > m[keys[j]] || m[keys[i]] == m[keys[j]] && keys[i] < keys[j] })
	out := ""
	for _, k := range keys {
		out += fmt.Sprintf(" %s %d", k, m[k])
	}
	if out == "" {
		out = " -"
	}
	return out
}
