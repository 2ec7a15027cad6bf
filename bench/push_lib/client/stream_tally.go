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

// summary: "RECEIVED MISSED GAPS DUP REORDER FIRST_MISSED LAST_MISSED CLOSED AFTER_0 AFTER_1 ..."
// over messages 1..last that were published (not in unpublished); a gap is a run of missed ones.
func (t *streamTally) summary(last int, unpublished map[int]bool) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	missed, gaps, first, lastMissed := 0, 0, 0, 0
	inGap := false
	for seq := 1; seq <= last; seq++ {
		if unpublished[seq] {
			continue
		}
		if seq/64 < len(t.seen) && t.seen[seq/64]&(1<<(seq%64)) != 0 {
			inGap = false
			continue
		}
		missed++
		if !inGap {
			gaps++
			inGap = true
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
	var b strings.Builder
	fmt.Fprintf(&b, "%d %d %d %d %d %d %d %d", t.received, missed, gaps, t.dup, t.reorder, first, lastMissed, closed)
	for _, a := range t.after {
		fmt.Fprintf(&b, " %d", a)
	}
	return b.String()
}
