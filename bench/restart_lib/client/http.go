// HTTP mode: C keep-alive clients (one http.Transport each, like wrk's connections) loop GET
// requests for a duration. Every request becomes one CSV line
// (start_ms,latency_us,client,outcome,served_by) and a summary is printed at the end.
//
// Retries: Go's Transport silently re-sends a request that failed on a reused keep-alive
// connection when the request is "replayable" (net/http/transport.go shouldRetryRequest,
// net/http/request.go isReplayable: Body nil or NoBody, or GetBody set, and method
// GET/HEAD/OPTIONS/TRACE or an Idempotency-Key header). That would hide exactly the failures this
// tool exists to see. So every request gets Body = emptyBody{} (non-nil, not NoBody) with
// GetBody nil: isReplayable() is then false, and since outgoingLength() is -1 rather than 0 the
// earlier nothingWrittenError branch of shouldRetryRequest declines too. For a GET the Transport
// probes the body, finds it empty, and sends neither a body nor Content-Length/Transfer-Encoding
// (net/http/transfer.go probeRequestBody). As a guard, httptrace counts connection acquisitions per
// request; more than one means a retry happened and is reported as "retries" (must be 0).
package main

import (
	"bufio"
	"context"
	"crypto/tls"
	"encoding/csv"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

type httpConfig struct {
	url      string
	clients  int
	duration time.Duration
	timeout  time.Duration
	out      string
	unix     string
	insecure bool
}

// event is one finished request.
type event struct {
	startUs  int64 // since the run started
	latUs    int64
	client   int
	outcome  string
	servedBy string
	attempts int32 // connections acquired by the Transport for this request (1 unless retried)
}

type servedStat struct {
	ServedBy string `json:"served_by"`
	Count    int64  `json:"count"`
	FirstMs  int64  `json:"first_ms"`
	LastMs   int64  `json:"last_ms"`
}

type httpSummary struct {
	Mode        string           `json:"mode"`
	URL         string           `json:"url"`
	Clients     int              `json:"clients"`
	StartUnixMs int64            `json:"start_unix_ms"`
	ElapsedS    float64          `json:"elapsed_s"`
	Requests    int64            `json:"requests"`
	Failures    int64            `json:"failures"`
	Outcomes    map[string]int64 `json:"outcomes"`
	RPS         float64          `json:"rps"`
	P50Ms       float64          `json:"p50_ms"`
	P99Ms       float64          `json:"p99_ms"`
	MaxMs       float64          `json:"max_ms"`
	Retries     int64            `json:"retries"`
	ServedBy    []servedStat     `json:"served_by"`
	MoreServed  int              `json:"served_by_not_listed"`
}

const maxServedListed = 20

func httpMain(args []string) error {
	fs := flag.NewFlagSet("http", flag.ContinueOnError)
	var cfg httpConfig
	fs.StringVar(&cfg.url, "url", "", "URL to GET (http:// or https://)")
	fs.IntVar(&cfg.clients, "c", 100, "concurrent keep-alive clients")
	fs.DurationVar(&cfg.duration, "d", 180*time.Second, "how long to send requests")
	fs.DurationVar(&cfg.timeout, "timeout", 2*time.Second, "per-request timeout, dial to end of body")
	fs.StringVar(&cfg.out, "out", "events.csv", "CSV file written, one line per request")
	fs.StringVar(&cfg.unix, "unix", "", "dial this unix socket instead of the URL's host:port")
	fs.BoolVar(&cfg.insecure, "insecure", false, "skip TLS certificate verification for https://")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if cfg.url == "" || cfg.clients < 1 {
		return errors.New("http: -url and -c >= 1 are required")
	}
	s, err := runHTTP(cfg, os.Stderr)
	if err != nil {
		return err
	}
	printHTTPSummary(os.Stdout, s)
	return nil
}

// runHTTP runs the load, writes cfg.out and returns the summary.
func runHTTP(cfg httpConfig, log io.Writer) (*httpSummary, error) {
	u, err := url.Parse(cfg.url)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return nil, fmt.Errorf("http: bad -url %q", cfg.url)
	}
	f, err := os.Create(cfg.out)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	bw := bufio.NewWriterSize(f, 1<<20)
	cw := csv.NewWriter(bw)

	t0 := time.Now()
	end := t0.Add(cfg.duration)
	fmt.Fprintf(bw, "#start_unix_ms=%d\n", t0.UnixMilli())
	cw.Write([]string{"start_ms", "latency_us", "client", "outcome", "served_by"})
	fmt.Fprintf(log, "client http: %d clients for %s against %s; start_unix_ms=%d\n",
		cfg.clients, cfg.duration, cfg.url, t0.UnixMilli())

	events := make(chan event, 1<<16)
	var wg sync.WaitGroup
	for i := range cfg.clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := newHTTPClient(cfg)
			defer c.tr.CloseIdleConnections()
			for time.Now().Before(end) {
				start := time.Now()
				outcome, served, attempts := c.do()
				events <- event{start.Sub(t0).Microseconds(), time.Since(start).Microseconds(), i, outcome, served, attempts}
			}
		}()
	}
	go func() { wg.Wait(); close(events) }()

	s := &httpSummary{Mode: "http", URL: cfg.url, Clients: cfg.clients, StartUnixMs: t0.UnixMilli(), Outcomes: map[string]int64{}}
	served := map[string]*servedStat{}
	var lat []int64
	rec := make([]string, 5)
	for ev := range events {
		startMs := ev.startUs / 1000
		rec[0], rec[1], rec[2] = strconv.FormatInt(startMs, 10), strconv.FormatInt(ev.latUs, 10), strconv.Itoa(ev.client)
		rec[3], rec[4] = ev.outcome, ev.servedBy
		cw.Write(rec)
		s.Requests++
		s.Outcomes[ev.outcome]++
		if ev.outcome != "ok" {
			s.Failures++
		}
		if ev.attempts > 1 {
			s.Retries++
		}
		lat = append(lat, ev.latUs)
		if ev.servedBy != "" {
			st := served[ev.servedBy]
			if st == nil {
				st = &servedStat{ServedBy: ev.servedBy, FirstMs: startMs}
				served[ev.servedBy] = st
			}
			st.Count++
			st.FirstMs, st.LastMs = min(st.FirstMs, startMs), max(st.LastMs, startMs)
		}
	}
	elapsed := time.Since(t0)
	cw.Flush()
	if err := cw.Error(); err != nil {
		return nil, err
	}
	if err := bw.Flush(); err != nil {
		return nil, err
	}
	if err := f.Close(); err != nil {
		return nil, err
	}

	slices.Sort(lat)
	s.ElapsedS = round2(elapsed.Seconds())
	s.RPS = round2(float64(s.Requests) / elapsed.Seconds())
	s.P50Ms, s.P99Ms = ms(pct(lat, 50)), ms(pct(lat, 99))
	if len(lat) > 0 {
		s.MaxMs = ms(lat[len(lat)-1])
	}
	for _, st := range served {
		s.ServedBy = append(s.ServedBy, *st)
	}
	sort.Slice(s.ServedBy, func(i, j int) bool { return s.ServedBy[i].FirstMs < s.ServedBy[j].FirstMs })
	if len(s.ServedBy) > maxServedListed {
		s.MoreServed = len(s.ServedBy) - maxServedListed
		s.ServedBy = s.ServedBy[:maxServedListed]
	}
	return s, nil
}

func printHTTPSummary(w io.Writer, s *httpSummary) {
	fmt.Fprintf(w, "http: %d requests in %.1f s = %.1f req/s (%d clients, %s)\n", s.Requests, s.ElapsedS, s.RPS, s.Clients, s.URL)
	fmt.Fprintf(w, "outcomes:")
	keys := make([]string, 0, len(s.Outcomes))
	for k := range s.Outcomes {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(w, " %s %d", k, s.Outcomes[k])
	}
	fmt.Fprintf(w, "  (failures %d)\n", s.Failures)
	fmt.Fprintf(w, "latency, all requests: p50 %.2f ms  p99 %.2f ms  max %.2f ms\n", s.P50Ms, s.P99Ms, s.MaxMs)
	fmt.Fprintf(w, "automatic retries by net/http (must be 0): %d\n", s.Retries)
	fmt.Fprintf(w, "%-40s %10s %10s %10s\n", "served_by", "count", "first_s", "last_s")
	for _, st := range s.ServedBy {
		fmt.Fprintf(w, "%-40s %10d %10.3f %10.3f\n", st.ServedBy, st.Count, float64(st.FirstMs)/1000, float64(st.LastMs)/1000)
	}
	if s.MoreServed > 0 {
		fmt.Fprintf(w, "(%d more served_by values not listed)\n", s.MoreServed)
	}
	writeJSON(w, s)
}

// httpClient is one keep-alive connection's worth of client: its own Transport, so it keeps (at
// most) one connection of its own and re-dials only when that one is gone.
type httpClient struct {
	tr         *http.Transport
	url        string
	timeout    time.Duration
	head       [256]byte
	lastServed string
}

func newHTTPClient(cfg httpConfig) *httpClient {
	tr := &http.Transport{
		DialContext:         dialFunc(cfg.unix, cfg.timeout),
		TLSClientConfig:     &tls.Config{InsecureSkipVerify: cfg.insecure},
		TLSHandshakeTimeout: cfg.timeout,
		// A non-nil empty map turns HTTP/2 off: HTTP/1.1 keep-alive, like wrk.
		TLSNextProto:        map[string]func(string, *tls.Conn) http.RoundTripper{},
		MaxIdleConnsPerHost: 1,
		DisableCompression:  true,
	}
	return &httpClient{tr: tr, url: cfg.url, timeout: cfg.timeout}
}

// emptyBody makes a request non-replayable (see the file comment) while sending no body.
type emptyBody struct{}

func (emptyBody) Read([]byte) (int, error) { return 0, io.EOF }
func (emptyBody) Close() error             { return nil }

// do sends one GET and reads the whole response; it returns the outcome, the served_by value and
// how many connections the Transport acquired for it.
func (c *httpClient) do() (outcome, servedBy string, attempts int32) {
	var conns atomic.Int32
	ctx, cancel := context.WithTimeout(context.Background(), c.timeout)
	defer cancel()
	ctx = httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{GotConn: func(httptrace.GotConnInfo) { conns.Add(1) }})
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.url, nil)
	if err != nil {
		return "other:" + shortErr(err), "", 0
	}
	req.Body = emptyBody{} // GetBody stays nil: not replayable, so never retried
	resp, err := c.tr.RoundTrip(req)
	if err != nil {
		return classify(err), "", conns.Load()
	}
	n, err := readBody(resp.Body, c.head[:])
	resp.Body.Close()
	servedBy = resp.Header.Get("X-Served-By")
	if servedBy == "" {
		line, _, _ := strings.Cut(string(c.head[:n]), "\n")
		line = strings.TrimSpace(line)
		servedBy = strings.ToValidUTF8(line[:min(len(line), 40)], "")
	}
	if servedBy == c.lastServed {
		servedBy = c.lastServed // share one string instead of keeping millions of copies
	}
	c.lastServed = servedBy
	switch {
	case err != nil:
		outcome = classify(err)
	case resp.StatusCode >= 200 && resp.StatusCode < 300:
		outcome = "ok"
	default:
		outcome = "http_" + strconv.Itoa(resp.StatusCode)
	}
	return outcome, servedBy, conns.Load()
}

// readBody reads the body to its end, keeping its first bytes in head.
func readBody(r io.Reader, head []byte) (n int, err error) {
	for n < len(head) && err == nil {
		var k int
		k, err = r.Read(head[n:])
		n += k
	}
	if err == nil {
		_, err = io.Copy(io.Discard, r)
	}
	if err == io.EOF {
		err = nil
	}
	return n, err
}

// classify names a transport error: timeout, reset, refused, eof or other:<short error>.
func classify(err error) string {
	var ne net.Error
	switch {
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &ne) && ne.Timeout():
		return "timeout"
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE):
		return "reset"
	case errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, syscall.ENOENT): // ENOENT: unix socket gone
		return "refused"
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF),
		strings.Contains(err.Error(), "server closed idle connection"):
		return "eof"
	}
	return "other:" + shortErr(err)
}

// shortErr keeps the last part of an error message ("dial tcp ...: connect: X" -> "X"), at most
// 40 bytes, without commas.
func shortErr(err error) string {
	s := err.Error()
	if i := strings.LastIndex(s, ": "); i >= 0 {
		s = s[i+2:]
	}
	s = strings.ReplaceAll(s[:min(len(s), 40)], ",", ";")
	return strings.ToValidUTF8(s, "")
}
