package main

// The connections a worker holds, WebSockets and SSE streams, spread over the server instances.
// Connection g (counted over all workers, from -index-first) goes to instance g % n of -instances
// (or to -url alone) and is of kind -kinds[(g / n) % len(kinds)]: with three instances and
// "ws,sse", 0-2 are WebSockets on instances 0, 1 and 2, 3-5 SSE streams on them, and so on, so
// each instance holds both kinds in equal shares.

import (
	"context"
	"strings"
	"sync"
	"time"
)

// client is what a worker reads broadcasts from: a gorilla WebSocket or an sseConn.
type client interface {
	ReadMessage() (int, []byte, error)
	Close() error
}

type target struct {
	instance int
	sse      bool
	url      string
}

func split(list string) []string {
	var out []string
	for _, s := range strings.Split(list, ",") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// targetOf says where connection g goes and what it is.
func targetOf(o options, g int) target {
	hosts, kinds := split(o.instances), split(o.kinds)
	if len(kinds) == 0 {
		kinds = []string{"ws"}
	}
	if len(hosts) == 0 { // bench/push: one server, WebSockets at -url
		return target{url: o.url}
	}
	t := target{instance: g % len(hosts), sse: kinds[(g/len(hosts))%len(kinds)] == "sse"}
	if t.sse {
		t.url = "http://" + hosts[t.instance] + "/"
	} else {
		t.url = "ws://" + hosts[t.instance] + "/"
	}
	return t
}

// openClients dials the worker's o.conns connections (global numbers o.indexFirst...) and hands
// each open one, with its local number, to onOpen (called under a lock).
func openClients(o options, onOpen func(i int, c client)) (ok, failed int, firstErr error) {
	var mu sync.Mutex
	return dialEach(o.conns, o.parallel, func(i int) error {
		t := targetOf(o, o.indexFirst+i)
		src := sourceIP(i, o.ipFirst, o.perIP)
		var c client
		var err error
		if t.sse {
			c, err = dialSSE(t.url, src, 60*time.Second)
		} else {
			c, _, err = dialer(src, 60*time.Second).DialContext(context.Background(), t.url, nil)
		}
		if err == nil {
			mu.Lock()
			onOpen(i, c)
			mu.Unlock()
		}
		return err
	})
}
