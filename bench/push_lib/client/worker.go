package main

// A worker process holds its share of the connections (one process may open at most 20,000
// files; clients.go says which instance and kind each is) and reports to the coordinator over
// stdin/stdout, one line each:
//   worker → "opened OK FAILED MILLIS ERROR"   once all its connections are dialled
//   worker → "got SEQ COUNT LAST_UNIX_NANOS"   when every open connection received broadcast SEQ
//   coord. → "status SEQ"  worker → "status SEQ COUNT LAST_UNIX_NANOS OPEN"   (after a timeout)
//   coord. → "times SEQ"   worker → "times SEQ BASE_UNIX_NANOS US_0 US_1 ..."   when each of its
//                          connections (0, 1, ... of this worker) received broadcast SEQ, in µs
//                          after BASE; -1 for none, x for a connection that did not open
//   coord. → "stream LAST [UNPUBLISHED...]"   worker → a "conn ..." line per open connection
//                          (stream_tally.go) of stream messages 1..LAST, then "streamed COUNT"
//   coord. → "quit" (or EOF)                   the worker exits; the kernel closes its sockets
// A broadcast message is the text "b SEQ ...", a stream message "f SEQ INSTANCE ..." (failover.go;
// its warm-up's "w ..." are not counted).

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

type tally struct {
	count int
	last  int64
	at    []int64 // by connection: unix nanos of its receipt, 0 for none
}

type holder struct {
	mu       sync.Mutex
	out      *bufio.Writer
	expected int            // connections opened; a broadcast is complete when all got it
	open     int            // connections still open
	seen     map[int]*tally // broadcast SEQ → receipts
	conns    int
	streams  []*streamTally // by connection; nil where it did not open
	killSeq  int
}

func (h *holder) say(format string, args ...any) {
	fmt.Fprintf(h.out, format+"\n", args...)
	h.out.Flush()
}

func (h *holder) read(c client, i int) {
	defer c.Close()
	for {
		_, msg, err := c.ReadMessage()
		now := time.Now().UnixNano()
		if err != nil {
			h.mu.Lock()
			h.open--
			h.mu.Unlock()
			h.streams[i].close()
			return
		}
		kind, seq, instance, ok := parseMessage(msg)
		switch {
		case !ok:
		case kind == 'b':
			h.broadcastGot(i, seq, now)
		case kind == 'f':
			h.streams[i].add(seq, instance, now, h.killSeq)
		}
	}
}

func (h *holder) broadcastGot(i, seq int, now int64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	t := h.seen[seq]
	if t == nil {
		t = &tally{at: make([]int64, h.conns)}
		h.seen[seq] = t
	}
	if t.at[i] != 0 {
		return
	}
	t.at[i] = now
	t.count++
	if now > t.last {
		t.last = now
	}
	if t.count == h.expected {
		h.say("got %d %d %d", seq, t.count, t.last)
	}
}

// parseMessage reads "K N [M] ...": the kind letter and one or two numbers.
func parseMessage(msg []byte) (kind byte, a, b int, ok bool) {
	if len(msg) < 3 || msg[1] != ' ' {
		return 0, 0, 0, false
	}
	nums := [2]int{-1, -1}
	pos := 2
	for k := 0; k < 2 && pos < len(msg); k++ {
		end := pos
		for end < len(msg) && msg[end] >= '0' && msg[end] <= '9' {
			end++
		}
		if end == pos {
			break
		}
		nums[k], _ = strconv.Atoi(string(msg[pos:end]))
		pos = end + 1
	}
	return msg[0], nums[0], nums[1], nums[0] >= 0
}

func (h *holder) times(seq int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	t := h.seen[seq]
	var b strings.Builder
	var base int64
	if t != nil {
		for _, at := range t.at {
			if at != 0 && (base == 0 || at < base) {
				base = at
			}
		}
	}
	fmt.Fprintf(&b, "times %d %d", seq, base)
	for i := 0; i < h.conns; i++ {
		if h.streams[i] == nil {
			b.WriteString(" x") // never opened
		} else if t == nil || t.at[i] == 0 {
			b.WriteString(" -1")
		} else {
			fmt.Fprintf(&b, " %d", (t.at[i]-base)/1000)
		}
	}
	h.say("%s", b.String())
}

func (h *holder) stream(f []string) {
	last, _ := strconv.Atoi(f[1])
	unpublished := map[int]bool{}
	for _, s := range f[2:] {
		n, _ := strconv.Atoi(s)
		unpublished[n] = true
	}
	count := 0
	for i, t := range h.streams {
		if t != nil {
			h.say("conn %d %s", i, t.summary(last, unpublished))
			count++
		}
	}
	h.say("streamed %d", count)
}

func runWorker(o options) {
	h := &holder{out: bufio.NewWriter(os.Stdout), seen: map[int]*tally{}, conns: o.conns,
		streams: make([]*streamTally, o.conns), killSeq: o.killSeq}
	conns := map[int]client{}
	start := time.Now()
	ok, failed, err := openClients(o, func(i int, c client) { conns[i] = c })
	h.mu.Lock()
	h.expected, h.open = ok, ok
	for i, c := range conns {
		h.streams[i] = &streamTally{}
		go h.read(c, i)
	}
	why := "-"
	if err != nil {
		why = strings.ReplaceAll(err.Error(), "\n", " ")
	}
	h.say("opened %d %d %d %s", ok, failed, time.Since(start).Milliseconds(), why)
	h.mu.Unlock()

	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 64<<10), 16<<20)
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
		case len(f) == 2 && f[0] == "times":
			seq, _ := strconv.Atoi(f[1])
			h.times(seq)
		case len(f) >= 2 && f[0] == "stream":
			h.stream(f)
		case len(f) == 1 && f[0] == "quit":
			return
		}
	}
}
