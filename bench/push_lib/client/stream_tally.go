package main

// One connection's account of the failover stream (failover.go): messages "f SEQ INSTANCE ...",
// SEQ counted 1, 2, ... over all publishing instances, INSTANCE the one the message was POSTed to.
// Kept: which SEQs arrived (a bitset), duplicates, reorderings (a SEQ below one already received
// from the same instance: each instance publishes in order, so Redis delivers its messages in
// order), and per instance the first receipt of a message numbered killSeq or more (all POSTed
// after the Redis master was killed).

import (
	"fmt"
	"strings"
	"sync"
)

type streamTally struct {
	mu       sync.Mutex
	seen     []uint64
	received int
	dup      int
	reorder  int
	last     []int   // by instance: the highest SEQ received
	after    []int64 // by instance: unix nanos of the first receipt of a SEQ >= killSeq, 0 for none
	closed   bool    // the connection ended
}

func (t *streamTally) add(seq, instance int, now int64, killSeq int) {
	if seq < 1 || instance < 0 || instance > 1000 {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	for len(t.seen) <= seq/64 {
		t.seen = append(t.seen, 0)
	}
	if t.seen[seq/64]&(1<<(seq%64)) != 0 {
		t.dup++
		return
	}
	t.seen[seq/64] |= 1 << (seq % 64)
	t.received++
	for len(t.last) <= instance {
		t.last = append(t.last, 0)
		t.after = append(t.after, 0)
	}
	if seq < t.last[instance] {
		t.reorder++
	} else {
		t.last[instance] = seq
	}
	if killSeq > 0 && seq >= killSeq && t.after[instance] == 0 {
		t.after[instance] = now
	}
}

func (t *streamTally) close() {
	t.mu.Lock()
	t.closed = true
	t.mu.Unlock()
}

// summary: "RECEIVED MISSED GAPS DUP REORDER FIRST_MISSED LAST_MISSED CLOSED RANGES AFTER_0 AFTER_1 ..."
// over messages 1..last that were published (not in unpublished); a gap is a run of missed
// ones, RANGES lists them ("7-9,12", "-" for none).
func (t *streamTally) summary(last int, unpublished map[int]bool) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	missed, first, lastMissed := 0, 0, 0
	var ranges [][2]int
	for seq := 1; seq <= last; seq++ {
		if unpublished[seq] || seq/64 < len(t.seen) && t.seen[seq/64]&(1<<(seq%64)) != 0 {
			continue
		}
		missed++
		if n := len(ranges); n > 0 && ranges[n-1][1] == seq-1 {
			ranges[n-1][1] = seq
		} else {
			ranges = append(ranges, [2]int{seq, seq})
		}
		if first == 0 {
			first = seq
		}
		lastMissed = seq
	}
	closed := 0
	if t.closed {
		closed = 1
	}
	list := make([]string, 0, len(ranges))
	for _, r := range ranges {
		if r[0] == r[1] {
			list = append(list, fmt.Sprint(r[0]))
		} else {
			list = append(list, fmt.Sprintf("%d-%d", r[0], r[1]))
		}
	}
	if len(list) == 0 {
		list = append(list, "-")
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d %d %d %d %d %d %d %d %s", t.received, missed, len(ranges), t.dup, t.reorder, first, lastMissed,
		closed, strings.Join(list, ","))
	for _, a := range t.after {
		fmt.Fprintf(&b, " %d", a)
	}
	return b.String()
}
