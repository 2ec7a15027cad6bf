// pushclient: the load side of bench/push. Against one freshly started WebSocket server it
// measures, in order:
//  1. the server's RSS (its whole process group, -pgid) before and after -conns idle connections
//     are opened by worker processes (pool.go, worker.go), after -settle; so the difference also
//     holds the one-time costs of the first upgrades (classes, JIT code): an upper bound;
//  2. echo round-trips per second over -echo-conns more connections (after -warmup), while the
//     idle ones stay open;
//  3. -broadcasts times (after -broadcast-warmup untimed ones): POST a message to -publish, which
//     the server sends to every connection; the time from the POST to the last connection
//     receiving it (median reported).
//
// With -mode fanout or -mode failover it measures instead several instances sharing a Redis
// (bench/push-redis): fanout.go and failover.go.
//
// It prints one JSON object on stdout; progress goes to stderr.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"
)

type options struct {
	worker                          bool
	mode, instances, kinds          string
	indexFirst, killSeq, killPid    int
	rate                            float64
	stream, killAfter, drain        time.Duration
	streamWarmup                    time.Duration
	url, publish, name, serve       string
	h2Addr                          string
	h2Conns                         int
	conns, perProcess, ipFirst      int
	perIP, parallel, echoConns      int
	broadcasts, broadcastWarmup     int
	pgid                            int
	warmup, duration, settle, limit time.Duration
}

// opened: how the opening of the held connections went.
type opened struct {
	Requested   int     `json:"conns"`
	Open        int     `json:"open"`
	OpenFailed  int     `json:"open_failed"`
	OpenError   string  `json:"open_error,omitempty"`
	OpenSeconds float64 `json:"open_seconds"`
	Processes   int     `json:"client_processes"`
}

type result struct {
	Server string      `json:"server"`
	Echo   echoResult  `json:"echo"`
	EchoH2 *echoResult `json:"echo_h2,omitempty"`
	opened
	RSSBefore int64     `json:"rss_before"`
	RSSOpen   int64     `json:"rss_open"`
	PerConn   float64   `json:"rss_per_conn"`
	Broadcast []float64 `json:"broadcast_ms"`
	Delivered []int     `json:"broadcast_delivered"`
	Median    float64   `json:"broadcast_median_ms"`
	Publish   []float64 `json:"publish_ms"`
	WarmupMs  []float64 `json:"broadcast_warmup_ms"`
	Error     string    `json:"error,omitempty"`
}

func main() {
	var o options
	flag.BoolVar(&o.worker, "worker", false, "run as a worker process (internal)")
	flag.StringVar(&o.serve, "serve", "", "run the reference server on this address instead (reference.go)")
	flag.StringVar(&o.mode, "mode", "", "fanout or failover: several instances on one Redis (fanout.go, failover.go)")
	flag.StringVar(&o.instances, "instances", "", "HOST:PORT,... of the instances the connections are spread over")
	flag.StringVar(&o.kinds, "kinds", "ws", "connection kinds in turn over the instances: ws, sse (clients.go)")
	flag.IntVar(&o.indexFirst, "index-first", 0, "global number of a worker's first connection (internal)")
	flag.Float64Var(&o.rate, "rate", 1000, "failover: messages POSTed per second, round-robin over the instances")
	flag.DurationVar(&o.stream, "stream", 20*time.Second, "failover: how long the stream runs")
	flag.DurationVar(&o.streamWarmup, "stream-warmup", 5*time.Second, "failover: uncounted stream before the counted one")
	flag.DurationVar(&o.killAfter, "kill-after", 6*time.Second, "failover: SIGKILL -kill-pid this far into the stream")
	flag.IntVar(&o.killPid, "kill-pid", 0, "failover: the Redis master's pid (0: no kill, a baseline)")
	flag.IntVar(&o.killSeq, "kill-seq", 0, "failover: first message POSTed after the kill (internal)")
	flag.DurationVar(&o.drain, "drain", 3*time.Second, "failover: wait after the last POST before counting")
	flag.StringVar(&o.url, "url", "", "WebSocket URL, ws://127.0.0.1:PORT/")
	flag.StringVar(&o.publish, "publish", "", "HTTP URL that broadcasts the POSTed body to every connection")
	flag.StringVar(&o.name, "name", "server", "server name for the result")
	flag.IntVar(&o.conns, "conns", 10000, "idle connections to hold")
	flag.IntVar(&o.perProcess, "per-process", 15000, "idle connections per worker process (fd cap 20,000)")
	flag.IntVar(&o.ipFirst, "ip-first", 2, "first source address 127.0.0.N of the idle connections")
	flag.IntVar(&o.perIP, "per-ip", 1000, "connections per source address")
	flag.IntVar(&o.parallel, "parallel", 64, "handshakes in flight per process")
	flag.IntVar(&o.echoConns, "echo-conns", 100, "echo connections")
	flag.StringVar(&o.h2Addr, "h2-addr", "", "also echo over HTTP/2 (RFC 8441, h2c) at this HOST:PORT")
	flag.IntVar(&o.h2Conns, "h2-conns", 10, "HTTP/2 connections the -echo-conns streams share")
	flag.IntVar(&o.broadcasts, "broadcasts", 7, "broadcasts to time")
	flag.IntVar(&o.broadcastWarmup, "broadcast-warmup", 3, "untimed broadcasts before those")
	flag.IntVar(&o.pgid, "pgid", 0, "server process group for RSS")
	flag.DurationVar(&o.warmup, "warmup", 5*time.Second, "echo warm-up")
	flag.DurationVar(&o.duration, "duration", 10*time.Second, "measured echo time")
	flag.DurationVar(&o.settle, "settle", 2*time.Second, "pause before each RSS reading")
	flag.DurationVar(&o.limit, "broadcast-timeout", 10*time.Second, "give up on one broadcast after")
	flag.Parse()
	if o.serve != "" {
		fmt.Fprintln(os.Stderr, serve(o.serve))
		os.Exit(1)
	}
	if o.worker {
		runWorker(o)
		return
	}
	var r any
	switch o.mode {
	case "fanout":
		r = runFanout(o)
	case "failover":
		r = runFailover(o)
	default:
		r = run(o)
	}
	json.NewEncoder(os.Stdout).Encode(r)
}

func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "[pushclient %s] "+format+"\n", append([]any{time.Now().Format("15:04:05")}, args...)...)
}

func run(o options) (r result) {
	r.Server = o.name
	p := holdIdle(o, &r)
	defer p.stop()
	if r.Error != "" {
		return r
	}
	logf("%s: echo over %d more connections, %v warm-up + %v", o.name, o.echoConns, o.warmup, o.duration)
	r.Echo = runEcho(o)
	logf("%s: echo %.0f round-trips/s, p50 %.2f ms, p99 %.2f ms, %d errors", o.name, r.Echo.PerSecond,
		r.Echo.P50ms, r.Echo.P99ms, r.Echo.Errors)
	if o.h2Addr != "" {
		logf("%s: echo over HTTP/2 (RFC 8441), %d streams on %d connections", o.name, o.echoConns, o.h2Conns)
		h2 := runEchoH2(o)
		r.EchoH2 = &h2
		logf("%s: h2 echo %.0f round-trips/s, p50 %.2f ms, p99 %.2f ms, %d errors %s", o.name, h2.PerSecond,
			h2.P50ms, h2.P99ms, h2.Errors, h2.Error)
	}
	if r.Open > 0 {
		broadcasts(o, p, &r)
	}
	return r
}

// holdIdle reads the server's RSS, has the workers open the idle connections, and reads it again.
func holdIdle(o options, r *result) *pool {
	time.Sleep(o.settle)
	r.RSSBefore, _ = groupRSS(o.pgid)
	logf("%s: RSS %d MB; opening %d idle connections", o.name, r.RSSBefore>>20, o.conns)
	p, err := openPool(o, &r.opened)
	if err != nil {
		r.Error = err.Error()
		return p
	}
	time.Sleep(o.settle)
	r.RSSOpen, _ = groupRSS(o.pgid)
	if r.Open > 0 {
		r.PerConn = float64(r.RSSOpen-r.RSSBefore) / float64(r.Open)
	}
	logf("%s: %d open (%d failed) in %.1f s; RSS %d MB, %.1f KB per connection", o.name, r.Open, r.OpenFailed,
		r.OpenSeconds, r.RSSOpen>>20, r.PerConn/1024)
	return p
}

// openPool starts the workers and waits until each has dialled its connections.
func openPool(o options, r *opened) (*pool, error) {
	r.Requested = o.conns
	start := time.Now()
	p, err := startPool(o)
	if err != nil {
		return p, err
	}
	r.Processes = len(p.workers)
	for _, w := range p.workers {
		f, err := w.next("opened", -1, 10*time.Minute)
		if err != nil {
			return p, err
		}
		r.Open += int(atoi(f[1]))
		r.OpenFailed += int(atoi(f[2]))
		if f[4] != "-" && r.OpenError == "" {
			r.OpenError = strings.Join(f[4:], " ")
		}
	}
	r.OpenSeconds = time.Since(start).Seconds()
	return p, nil
}
