package main

// -mode fanout: -conns connections (WebSockets and SSE streams, clients.go) spread over the
// -instances, which share one Redis. Each broadcast is POSTed to the next instance in turn and
// reaches the others through Redis. Per broadcast (after -broadcast-warmup untimed ones) every
// connection's latency, from the POST to its receipt, is collected; the percentiles are over
// all of them (connections × timed broadcasts), in all and by kind and by instance, next to the
// time to the last connection of each broadcast.

import (
	"fmt"
	"math"
	"net/http"
	"sort"
	"time"
)

type fanoutResult struct {
	Server    string `json:"server"`
	Scenario  string `json:"scenario"`
	Instances int    `json:"instances"`
	Kinds     string `json:"kinds"`
	opened
	Broadcasts []fanoutBroadcast    `json:"broadcasts"`
	WarmupMs   []float64            `json:"broadcast_warmup_ms"`
	LastMedian float64              `json:"last_median_ms"`
	Latency    map[string]*percents `json:"latency"` // "all", "ws", "sse", "instance 1", ...
	Error      string               `json:"error,omitempty"`
}

type fanoutBroadcast struct {
	Via       int     `json:"via"` // the instance POSTed to, from 1
	LastMs    float64 `json:"last_ms"`
	PostMs    float64 `json:"post_ms"`
	Delivered int     `json:"delivered"`
}

// percents of a set of latencies in ms; Missing counts receipts that never came.
type percents struct {
	N       int       `json:"n"`
	Missing int       `json:"missing"`
	P50     float64   `json:"p50_ms"`
	P99     float64   `json:"p99_ms"`
	Max     float64   `json:"max_ms"`
	samples []float64 // until done
}

func (p *percents) done() {
	s := p.samples
	sort.Float64s(s)
	p.N = len(s)
	if p.N > 0 {
		p.P50, p.P99, p.Max = rank(s, 0.50), rank(s, 0.99), s[p.N-1]
	}
	p.samples = nil
}

// rank: the nearest-rank percentile of sorted s.
func rank(s []float64, q float64) float64 { return s[int(math.Ceil(q*float64(len(s))))-1] }

func runFanout(o options) (r fanoutResult) {
	hosts := split(o.instances)
	r.Server, r.Scenario, r.Instances, r.Kinds = o.name, "fanout", len(hosts), o.kinds
	r.Latency = map[string]*percents{}
	logf("%s: opening %d connections (%s) over %d instances", o.name, o.conns, o.kinds, len(hosts))
	p, err := openPool(o, &r.opened)
	defer p.stop()
	if err != nil {
		r.Error = err.Error()
		return r
	}
	logf("%s: %d open (%d failed) in %.1f s %s", o.name, r.Open, r.OpenFailed, r.OpenSeconds, r.OpenError)
	if r.Open == 0 {
		r.Error = "no connection opened"
		return r
	}
	http.DefaultClient.Timeout = o.limit
	var lasts []float64
	for seq := 1; seq <= o.broadcastWarmup+o.broadcasts; seq++ {
		via := (seq - 1) % len(hosts)
		start, took, post, got, err := broadcast(o, p, seq, "http://"+hosts[via]+"/publish")
		if err != nil {
			r.Error = err.Error()
			return r
		}
		if seq <= o.broadcastWarmup {
			r.WarmupMs = append(r.WarmupMs, took)
			logf("%s: warm-up broadcast %d via instance %d reached %d in %.1f ms", o.name, seq, via+1, got, took)
		} else {
			r.Broadcasts = append(r.Broadcasts, fanoutBroadcast{Via: via + 1, LastMs: took, PostMs: post, Delivered: got})
			lasts = append(lasts, took)
			if err := collectTimes(o, p, seq, start, r.Latency); err != nil {
				r.Error = err.Error()
				return r
			}
			logf("%s: broadcast %d via instance %d reached %d in %.1f ms (POST answered after %.1f ms)",
				o.name, seq, via+1, got, took, post)
		}
		time.Sleep(300 * time.Millisecond)
	}
	for _, p := range r.Latency {
		p.done()
	}
	sort.Float64s(lasts)
	r.LastMedian = lasts[len(lasts)/2]
	return r
}

// collectTimes asks every worker when each of its connections received broadcast seq and adds
// the latencies from start to the sets "all", the connection's kind and its instance.
func collectTimes(o options, p *pool, seq int, start time.Time, into map[string]*percents) error {
	add := func(key string, ms float64, missing bool) {
		if into[key] == nil {
			into[key] = &percents{}
		}
		if missing {
			into[key].Missing++
		} else {
			into[key].samples = append(into[key].samples, ms)
		}
	}
	for _, w := range p.workers {
		w.send(fmt.Sprintf("times %d", seq))
		f, err := w.next("times", seq, 30*time.Second)
		if err != nil {
			return err
		}
		base := atoi(f[2])
		for i, s := range f[3:] {
			if s == "x" {
				continue
			}
			t := targetOf(o, w.first+i)
			us := atoi(s)
			ms := float64(base+us*1000-start.UnixNano()) / 1e6
			kind := "ws"
			if t.sse {
				kind = "sse"
			}
			for _, key := range []string{"all", kind, fmt.Sprintf("instance %d", t.instance+1)} {
				add(key, ms, us < 0)
			}
		}
	}
	return nil
}
