package main

// The coordinator's side of the worker processes (see worker.go for the line protocol). Each
// worker is this program again with -worker, holding at most -per-process connections.

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

type worker struct {
	first int // the global number of its first connection (clients.go)
	cmd   *exec.Cmd
	in    io.WriteCloser
	lines chan []string
}

type pool struct{ workers []*worker }

func startPool(o options) (*pool, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	p := &pool{}
	ipFirst, first := o.ipFirst, 0
	for left := o.conns; left > 0; left -= o.perProcess {
		n := left
		if n > o.perProcess {
			n = o.perProcess
		}
		cmd := exec.Command(self, "-worker", "-url", o.url, "-instances", o.instances, "-kinds", o.kinds,
			"-conns", strconv.Itoa(n), "-index-first", strconv.Itoa(first), "-kill-seq", strconv.Itoa(o.killSeq),
			"-ip-first", strconv.Itoa(ipFirst), "-per-ip", strconv.Itoa(o.perIP), "-parallel", strconv.Itoa(o.parallel))
		w := &worker{first: first, cmd: cmd, lines: make(chan []string, 16)}
		ipFirst += (n + o.perIP - 1) / o.perIP
		first += n
		cmd.Stderr = os.Stderr
		if w.in, err = cmd.StdinPipe(); err != nil {
			return p, err
		}
		out, err := cmd.StdoutPipe()
		if err != nil {
			return p, err
		}
		if err := cmd.Start(); err != nil {
			return p, err
		}
		go func() {
			s := bufio.NewScanner(out)
			s.Buffer(make([]byte, 64<<10), 16<<20) // "times" lines: a number per connection
			for s.Scan() {
				w.lines <- strings.Fields(s.Text())
			}
			close(w.lines)
		}()
		p.workers = append(p.workers, w)
	}
	return p, nil
}

// next waits for the worker's next line starting with word (and, when seq >= 0, that number),
// skipping others (such as a late "got" for an earlier broadcast).
func (w *worker) next(word string, seq int, timeout time.Duration) ([]string, error) {
	deadline := time.After(timeout)
	for {
		select {
		case f, ok := <-w.lines:
			if !ok {
				return nil, fmt.Errorf("worker exited")
			}
			if len(f) > 1 && f[0] == word && (seq < 0 || f[1] == strconv.Itoa(seq)) {
				return f, nil
			}
		case <-deadline:
			return nil, fmt.Errorf("no %q from worker within %v", word, timeout)
		}
	}
}

func (w *worker) send(line string) { fmt.Fprintln(w.in, line) }

func (p *pool) stop() {
	if p == nil {
		return
	}
	for _, w := range p.workers {
		w.send("quit")
		w.in.Close()
	}
	for _, w := range p.workers {
		done := make(chan struct{})
		go func() { w.cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			w.cmd.Process.Kill()
		}
	}
}

func atoi(s string) int64 { n, _ := strconv.ParseInt(s, 10, 64); return n }

// collect gathers the worker's lines starting with word until one starting with end (returned last).
func (w *worker) collect(word, end string, timeout time.Duration) ([][]string, error) {
	deadline := time.After(timeout)
	var out [][]string
	for {
		select {
		case f, ok := <-w.lines:
			if !ok {
				return out, fmt.Errorf("worker exited")
			}
			if len(f) > 0 && (f[0] == word || f[0] == end) {
				out = append(out, f)
				if f[0] == end {
					return out, nil
				}
			}
		case <-deadline:
			return out, fmt.Errorf("no %q from worker within %v", end, timeout)
		}
	}
}
