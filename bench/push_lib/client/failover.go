package main

// -mode failover: -conns connections (WebSockets and SSE streams, clients.go) over the
// -instances, which find their Redis master through Sentinel. After one warm-up broadcast POSTed
// to each instance and -stream-warmup of the stream with uncounted messages ("w ...": the JIT),
// a stream of messages "f SEQ INSTANCE ..." is POSTed at -rate per second for
// -stream, message SEQ to instance (SEQ-1) % n, each instance's share in order on one keep-alive
// connection, on a fixed schedule (a late POST is sent at once; the lag is reported, and the lag
// before the kill says whether the machine kept up with the stream at all: -conns × -rate
// deliveries a second). At -kill-after the Redis master (-kill-pid) gets SIGKILL; messages from
// -kill-seq on are POSTed only after it. -drain after the last POST each connection's account (stream_tally.go) is collected:
//   recovery  per instance POSTed to: from the kill to the first receipt of a message POSTed to it
//             after the kill, anywhere, by a client of each instance, and by every client
//   loss      per client: messages missed (never received), gaps (runs of them), duplicates and
//             reorderings; and when the missed messages were POSTed, relative to the kill

import (
	"fmt"
	"net/http"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"
)

type failoverResult struct {
	Server    string `json:"server"`
	Scenario  string `json:"scenario"`
	Instances int    `json:"instances"`
	Kinds     string `json:"kinds"`
	opened
	Rate           float64               `json:"rate"`
	StreamSeconds  float64               `json:"stream_seconds"`
	KillAfter      float64               `json:"kill_after_seconds"`
	Killed         bool                  `json:"killed"`
	KillSeq        int                   `json:"kill_seq"`
	Published      int                   `json:"published"` // messages 1..Published were POSTed
	PostFailed     int                   `json:"post_failed"`
	AchievedRate   float64               `json:"achieved_rate"`
	MaxLagMs       float64               `json:"max_lag_ms"`
	LagBeforeMs    float64               `json:"max_lag_before_kill_ms"` // the stream kept up before the kill?
	Recovery       []recovery            `json:"recovery"`
	AllInstancesMs float64               `json:"all_instances_ms"` // -1: some instance's messages never reached some instance
	AllClientsMs   float64               `json:"all_clients_ms"`   // -1: some client never got a message POSTed after the kill
	Loss           map[string]*lossGroup `json:"loss"`             // "all", "ws", "sse", "instance 1", ...
	MissedFromMs   *float64              `json:"missed_posted_from_ms,omitempty"`
	MissedToMs     *float64              `json:"missed_posted_to_ms,omitempty"`
	Error          string                `json:"error,omitempty"`
}

type recovery struct {
	Instance       int       `json:"instance"` // from 1: the instance POSTed to
	Posts          int       `json:"posts"`
	Failed         int       `json:"failed"`
	MaxPostMs      float64   `json:"max_post_ms"`    // the slowest POST to it
	MaxPostAtMs    float64   `json:"max_post_at_ms"` // when that POST was sent, from the kill
	SlowPosts      int       `json:"slow_posts"`     // POSTs answered after more than 100 ms
	FirstMs        float64   `json:"first_ms"`
	ByInstanceMs   []float64 `json:"by_instance_ms"` // by the receiving clients' instance
	AllInstancesMs float64   `json:"all_instances_ms"`
	AllClientsMs   float64   `json:"all_clients_ms"`
	ClientsNever   int       `json:"clients_never"`
}

type lossGroup struct {
	Clients      int `json:"clients"`
	WithLoss     int `json:"with_loss"`
	Missed       int `json:"missed"`
	MissedMedian int `json:"missed_median"`
	MissedMax    int `json:"missed_max"`
	Gaps         int `json:"gaps"`
	Dup          int `json:"duplicates"`
	Reorder      int `json:"reordered"`
	Closed       int `json:"closed"`
	missed       []int
}

// posts: what the stream's publishers did.
type posts struct {
	mu     sync.Mutex
	at     []int64 // by SEQ: unix nanos of its POST
	failed []int
	count  []int // by instance
	fails  []int
	slow   []time.Duration // by instance: the slowest POST
	slowAt []time.Time     // by instance: when it was sent
	slows  []int           // by instance: POSTs slower than 100 ms
	maxLag time.Duration
	before time.Duration // the largest lag of a message before -kill-seq
	end    time.Time
}

func runFailover(o options) (r failoverResult) {
	hosts := split(o.instances)
	last := int(o.stream.Seconds() * o.rate)
	o.killSeq = int(o.killAfter.Seconds()*o.rate) + 1
	r.Server, r.Scenario, r.Instances, r.Kinds = o.name, "failover", len(hosts), o.kinds
	r.Rate, r.StreamSeconds, r.KillAfter, r.KillSeq = o.rate, o.stream.Seconds(), o.killAfter.Seconds(), o.killSeq
	logf("%s: opening %d connections (%s) over %d instances", o.name, o.conns, o.kinds, len(hosts))
	p, err := openPool(o, &r.opened)
	defer p.stop()
	if err == nil && r.Open == 0 {
		err = fmt.Errorf("no connection opened")
	}
	if err != nil {
		r.Error = err.Error()
		return r
	}
	http.DefaultClient.Timeout = o.limit
	for i := range hosts { // every instance subscribed and publishing
		_, took, _, got, err := broadcast(o, p, i+1, "http://"+hosts[i]+"/publish")
		if err != nil {
			r.Error = err.Error()
			return r
		}
		logf("%s: warm-up broadcast via instance %d reached %d of %d in %.1f ms", o.name, i+1, got, r.Open, took)
	}

	if o.streamWarmup > 0 {
		logf("%s: warming up: %d messages/s for %v", o.name, int(o.rate), o.streamWarmup)
		open := make(chan struct{})
		close(open)
		w := o
		w.killSeq = 0
		stream(w, hosts, time.Now(), int(o.streamWarmup.Seconds()*o.rate), open, 'w')
	}
	logf("%s: streaming %d messages/s for %v; SIGKILL of pid %d after %v", o.name, int(o.rate), o.stream, o.killPid, o.killAfter)
	start := time.Now()
	killed := make(chan struct{})
	var killedAt time.Time
	go func() {
		time.Sleep(time.Until(start.Add(o.killAfter)))
		if o.killPid > 0 {
			r.Killed = syscall.Kill(o.killPid, syscall.SIGKILL) == nil
		}
		killedAt = time.Now()
		logf("%s: killed the Redis master (pid %d): %v", o.name, o.killPid, r.Killed)
		close(killed)
	}()
	ps := stream(o, hosts, start, last, killed, 'f')
	<-killed
	r.Published, r.PostFailed = last, len(ps.failed)
	r.AchievedRate = float64(last) / ps.end.Sub(start).Seconds()
	r.MaxLagMs = float64(ps.maxLag.Microseconds()) / 1000
	r.LagBeforeMs = float64(ps.before.Microseconds()) / 1000
	logf("%s: %d POSTed (%d failed) at %.0f/s, at most %.1f ms late (%.1f ms before the kill); draining %v", o.name,
		last, r.PostFailed, r.AchievedRate, r.MaxLagMs, r.LagBeforeMs, o.drain)
	time.Sleep(o.drain)

	var rows [][]string
	var owners []*worker
	unpublished := strings.Trim(fmt.Sprint(ps.failed), "[]")
	for _, w := range p.workers {
		w.send(fmt.Sprintf("stream %d %s", last, unpublished))
		got, err := w.collect("conn", "streamed", 60*time.Second)
		if err != nil {
			r.Error = err.Error()
			return r
		}
		for _, f := range got[:len(got)-1] {
			rows = append(rows, f)
			owners = append(owners, w)
		}
	}
	account(o, &r, hosts, rows, owners, ps, killedAt)
	return r
}

// stream POSTs messages "KIND 1 ...".."KIND last ..." on schedule, one goroutine per instance;
// those from o.killSeq (when not 0) on only once killed is closed. Returns when all are sent.
func stream(o options, hosts []string, start time.Time, last int, killed <-chan struct{}, kind byte) *posts {
	interval := time.Duration(float64(time.Second) / o.rate)
	ps := &posts{at: make([]int64, last+1), count: make([]int, len(hosts)), fails: make([]int, len(hosts)),
		slow: make([]time.Duration, len(hosts)), slowAt: make([]time.Time, len(hosts)), slows: make([]int, len(hosts))}
	pad := strings.Repeat(".", 32)
	var wg sync.WaitGroup
	for inst := range hosts {
		wg.Add(1)
		go func(inst int) {
			defer wg.Done()
			// a POST given up on would be published later, out of order: wait long
			c := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 2}}
			url := "http://" + hosts[inst] + "/publish"
			for seq := inst + 1; seq <= last; seq += len(hosts) {
				due := start.Add(time.Duration(seq-1) * interval)
				time.Sleep(time.Until(due))
				if o.killSeq > 0 && seq >= o.killSeq {
					<-killed
				}
				t := time.Now()
				ps.at[seq] = t.UnixNano()
				resp, err := c.Post(url, "text/plain", strings.NewReader(fmt.Sprintf("%c %d %d %s", kind, seq, inst, pad)))
				ok := err == nil && resp.StatusCode == 200
				if err == nil {
					resp.Body.Close()
				}
				took := time.Since(t)
				ps.mu.Lock()
				ps.count[inst]++
				if took > ps.slow[inst] {
					ps.slow[inst], ps.slowAt[inst] = took, t
				}
				if took > 100*time.Millisecond {
					ps.slows[inst]++
				}
				if !ok {
					ps.failed = append(ps.failed, seq)
					ps.fails[inst]++
				}
				if lag := t.Sub(due); lag > ps.maxLag {
					ps.maxLag = lag
				}
				if lag := t.Sub(due); (o.killSeq == 0 || seq < o.killSeq) && lag > ps.before {
					ps.before = lag
				}
				ps.mu.Unlock()
			}
		}(inst)
	}
	wg.Wait()
	ps.end = time.Now()
	sort.Ints(ps.failed)
	return ps
}

// account turns the workers' "conn" lines (worker.go) into recovery times and loss counts.
func account(o options, r *failoverResult, hosts []string, rows [][]string, owners []*worker, ps *posts, killedAt time.Time) {
	n := len(hosts)
	since := func(nanos int64) float64 { return float64(nanos-killedAt.UnixNano()) / 1e6 }
	r.Loss = map[string]*lossGroup{}
	firstBy := make([][]int64, n) // [posted to][client's instance]: earliest receipt after the kill
	lastAll := make([]int64, n)
	never := make([]int, n)
	for i := range firstBy {
		firstBy[i] = make([]int64, n)
	}
	var from, to int64
	for k, f := range rows {
		if len(f) < 11 { // "conn I" and stream_tally.go's summary
			continue
		}
		t := targetOf(o, owners[k].first+int(atoi(f[1])))
		kind := "ws"
		if t.sse {
			kind = "sse"
		}
		missed := int(atoi(f[3]))
		for _, key := range []string{"all", kind, fmt.Sprintf("instance %d", t.instance+1)} {
			g := r.Loss[key]
			if g == nil {
				g = &lossGroup{}
				r.Loss[key] = g
			}
			g.Clients++
			g.Missed += missed
			g.missed = append(g.missed, missed)
			if missed > 0 {
				g.WithLoss++
			}
			g.Gaps += int(atoi(f[4]))
			g.Dup += int(atoi(f[5]))
			g.Reorder += int(atoi(f[6]))
			g.Closed += int(atoi(f[9]))
		}
		for _, span := range strings.Split(f[10], ",") { // when the missed ones were POSTed
			lo, hi, _ := strings.Cut(span, "-")
			if lo == "" {
				continue
			}
			if hi == "" {
				hi = lo
			}
			for seq := atoi(lo); seq <= atoi(hi) && seq < int64(len(ps.at)); seq++ {
				if a := ps.at[seq]; a != 0 && (from == 0 || a < from) {
					from = a
				}
				if a := ps.at[seq]; a > to {
					to = a
				}
			}
		}
		for inst := 0; inst < n; inst++ {
			var a int64
			if 11+inst < len(f) {
				a = atoi(f[11+inst])
			}
			if a == 0 {
				never[inst]++
				continue
			}
			if b := firstBy[inst][t.instance]; b == 0 || a < b {
				firstBy[inst][t.instance] = a
			}
			if a > lastAll[inst] {
				lastAll[inst] = a
			}
		}
	}
	for _, g := range r.Loss {
		sort.Ints(g.missed)
		g.MissedMedian, g.MissedMax = g.missed[len(g.missed)/2], g.missed[len(g.missed)-1]
	}
	if from != 0 {
		a, b := since(from), since(to)
		r.MissedFromMs, r.MissedToMs = &a, &b
	}
	r.AllInstancesMs, r.AllClientsMs = 0, 0
	for inst := 0; inst < n; inst++ {
		rec := recovery{Instance: inst + 1, Posts: ps.count[inst], Failed: ps.fails[inst], FirstMs: -1,
			MaxPostMs: float64(ps.slow[inst].Microseconds()) / 1000, SlowPosts: ps.slows[inst],
			MaxPostAtMs: since(ps.slowAt[inst].UnixNano()), ClientsNever: never[inst]}
		for _, a := range firstBy[inst] {
			ms := -1.0
			if a != 0 {
				ms = since(a)
				if rec.FirstMs < 0 || ms < rec.FirstMs {
					rec.FirstMs = ms
				}
			}
			rec.ByInstanceMs = append(rec.ByInstanceMs, ms)
			if rec.AllInstancesMs >= 0 && (ms < 0 || ms > rec.AllInstancesMs) {
				rec.AllInstancesMs = ms
			}
		}
		rec.AllClientsMs = since(lastAll[inst])
		if never[inst] > 0 || lastAll[inst] == 0 {
			rec.AllClientsMs = -1
		}
		r.Recovery = append(r.Recovery, rec)
		r.AllInstancesMs = worst(r.AllInstancesMs, rec.AllInstancesMs)
		r.AllClientsMs = worst(r.AllClientsMs, rec.AllClientsMs)
		logf("%s: messages POSTed to instance %d after the kill: first received after %.0f ms, by every instance after %.0f ms, by every client after %.0f ms",
			o.name, inst+1, rec.FirstMs, rec.AllInstancesMs, rec.AllClientsMs)
	}
	all := r.Loss["all"]
	if all != nil {
		logf("%s: %d of %d clients missed messages (%d in all, at most %d), %d duplicates, %d reordered",
			o.name, all.WithLoss, all.Clients, all.Missed, all.MissedMax, all.Dup, all.Reorder)
	}
}

// worst of two recovery times, where -1 (never) is worst of all.
func worst(a, b float64) float64 {
	if a < 0 || b < 0 {
		return -1
	}
	if b > a {
		return b
	}
	return a
}
