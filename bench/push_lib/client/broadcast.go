package main

// Broadcast timing: POST "b SEQ ..." to the server's publish URL and wait until every worker saw
// message SEQ on all of its connections; the time from the POST to the last receipt is measured
// on one clock (the workers' receipt times are wall-clock nanoseconds on the same machine).

import (
	"fmt"
	"net/http"
	"sort"
	"strings"
	"time"
)

func broadcasts(o options, p *pool, r *result) {
	http.DefaultClient.Timeout = o.limit
	for seq := 1; seq <= o.broadcastWarmup+o.broadcasts; seq++ {
		_, took, post, got, err := broadcast(o, p, seq, o.publish)
		if err != nil {
			r.Error = err.Error()
			return
		}
		if seq <= o.broadcastWarmup {
			r.WarmupMs = append(r.WarmupMs, took)
			logf("%s: warm-up broadcast %d reached %d in %.1f ms", o.name, seq, got, took)
		} else {
			r.Broadcast = append(r.Broadcast, took)
			r.Delivered = append(r.Delivered, got)
			r.Publish = append(r.Publish, post)
			logf("%s: broadcast %d reached %d in %.1f ms (POST answered after %.1f ms)", o.name, seq, got, took, post)
		}
		time.Sleep(300 * time.Millisecond)
	}
	s := append([]float64(nil), r.Broadcast...)
	sort.Float64s(s)
	r.Median = s[len(s)/2]
}

// broadcast POSTs message SEQ to url and waits for every worker's receipts (or the time limit);
// returns when it POSTed, the milliseconds from then to the last receipt and to the POST's
// answer, and how many connections got the message.
func broadcast(o options, p *pool, seq int, url string) (start time.Time, took, post float64, got int, err error) {
	body := fmt.Sprintf("b %d %s", seq, strings.Repeat(".", 32))
	start = time.Now()
	resp, err := http.Post(url, "text/plain", strings.NewReader(body))
	if err != nil {
		return start, 0, 0, 0, err
	}
	resp.Body.Close()
	post = float64(time.Since(start).Microseconds()) / 1000
	if resp.StatusCode != 200 {
		return start, 0, 0, 0, fmt.Errorf("publish answered %d", resp.StatusCode)
	}
	deadline := start.Add(o.limit)
	var last int64
	for _, w := range p.workers {
		f, err := w.next("got", seq, time.Until(deadline))
		if err != nil { // late or lost messages: take what arrived
			w.send(fmt.Sprintf("status %d", seq))
			if f, err = w.next("status", seq, 5*time.Second); err != nil {
				return start, 0, 0, 0, err
			}
		}
		got += int(atoi(f[2]))
		if t := atoi(f[3]); t > last {
			last = t
		}
	}
	if last == 0 {
		return start, o.limit.Seconds() * 1000, post, 0, nil
	}
	return start, float64(last-start.UnixNano()) / 1e6, post, got, nil
}
