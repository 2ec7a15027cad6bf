package main

// A worker process holds its share of the idle connections (one process may open at most 20,000
// files) and reports broadcasts to the coordinator over stdin/stdout, one line each:
//   worker → "opened OK FAILED MILLIS ERROR"   once all its connections are dialled
//   worker → "got SEQ COUNT LAST_UNIX_NANOS"   when every open connection received broadcast SEQ
//   coord. → "status SEQ"  worker → "status SEQ COUNT LAST_UNIX_NANOS OPEN"   (after a timeout)
//   coord. → "quit" (or EOF)                   the worker exits; the kernel closes its sockets
// A broadcast message is the text "b SEQ ...".

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

type tally struct {
	count int
	last  int64
}

type holder struct {
	mu       sync.Mutex
	out      *bufio.Writer
	expected int            // connections opened; a broadcast is complete when all got it
	open     int            // connections still open
	seen     map[int]*tally // broadcast SEQ → receipts
}

func (h *holder) say(format string, args ...any) {
	fmt.Fprintf(h.out, format+"\n", args...)
	h.out.Flush()
}

func (h *holder) read(c *websocket.Conn) {
	defer c.Close()
	for {
		_, msg, err := c.ReadMessage()
		now := time.Now().UnixNano()
		if err != nil {
			h.mu.Lock()
			h.open--
			h.mu.Unlock()
			return
		}
		if len(msg) < 3 || msg[0] != 'b' || msg[1] != ' ' {
			continue
		}
		end := 2
		for end < len(msg) && msg[end] != ' ' {
			end++
		}
		seq, err := strconv.Atoi(string(msg[2:end]))
		if err != nil {
			continue
		}
		h.mu.Lock()
		t := h.seen[seq]
		if t == nil {
			t = &tally{}
			h.seen[seq] = t
		}
		t.count++
		if now > t.last {
			t.last = now
		}
		if t.count == h.expected {
			h.say("got %d %d %d", seq, t.count, t.last)
		}
		h.mu.Unlock()
	}
}

func runWorker(o options) {
	h := &holder{out: bufio.NewWriter(os.Stdout), seen: map[int]*tally{}}
	var conns []*websocket.Conn
	start := time.Now()
	ok, failed, err := openAll(o.url, o.conns, o.ipFirst, o.perIP, o.parallel, func(c *websocket.Conn) {
		conns = append(conns, c)
	})
	h.mu.Lock()
	h.expected, h.open = ok, ok
	for _, c := range conns {
		go h.read(c)
	}
	why := "-"
	if err != nil {
		why = strings.ReplaceAll(err.Error(), "\n", " ")
	}
	h.say("opened %d %d %d %s", ok, failed, time.Since(start).Milliseconds(), why)
	h.mu.Unlock()

	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		f := strings.Fields(in.Text())
		switch {
		case len(f) == 2 && f[0] == "status":
			seq, _ := strconv.Atoi(f[1])
			h.mu.Lock()
			t := h.seen[seq]
			if t == nil {
				t = &tally{}
			}
			h.say("status %d %d %d %d", seq, t.count, t.last, h.open)
			h.mu.Unlock()
		case len(f) == 1 && f[0] == "quit":
			return
		}
	}
}
