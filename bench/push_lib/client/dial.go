package main

// Opening many WebSockets from loopback source addresses. One source address has ~28k ephemeral
// ports, so connection i comes from 127.0.0.(first + i/perIP) (spilling over into 127.0.x.y).
// IP_BIND_ADDRESS_NO_PORT makes the kernel pick the port at connect() time by the whole 4-tuple,
// so ports still in TIME_WAIT from an earlier run (towards another server port) do not block.

import (
	"context"
	"net"
	"sync"
	"syscall"
	"time"

	"github.com/gorilla/websocket"
)

const ipBindAddressNoPort = 24 // linux/in.h

func sourceIP(i, first, perIP int) net.IP {
	n := first + i/perIP
	return net.IPv4(127, byte(n>>16), byte(n>>8), byte(n))
}

// netDialer dials from src; the kernel picks the port at connect() time.
func netDialer(src net.IP, timeout time.Duration) *net.Dialer {
	return &net.Dialer{
		LocalAddr: &net.TCPAddr{IP: src},
		Timeout:   timeout,
		Control: func(_, _ string, c syscall.RawConn) error {
			var serr error
			if err := c.Control(func(fd uintptr) {
				serr = syscall.SetsockoptInt(int(fd), syscall.IPPROTO_IP, ipBindAddressNoPort, 1)
			}); err != nil {
				return err
			}
			return serr
		},
	}
}

func dialer(src net.IP, timeout time.Duration) *websocket.Dialer {
	return &websocket.Dialer{
		NetDialContext:   netDialer(src, timeout).DialContext,
		HandshakeTimeout: timeout,
		ReadBufferSize:   1024,
		WriteBufferSize:  1024,
	}
}

// openAll dials n WebSockets to url, at most parallel at a time, and hands each open one to onOpen.
func openAll(url string, n, first, perIP, parallel int, onOpen func(*websocket.Conn)) (ok, failed int, firstErr error) {
	var mu sync.Mutex
	return dialEach(n, parallel, func(i int) error {
		c, _, err := dialer(sourceIP(i, first, perIP), 60*time.Second).DialContext(context.Background(), url, nil)
		if err == nil {
			mu.Lock()
			onOpen(c)
			mu.Unlock()
		}
		return err
	})
}

// dialEach calls dial(0..n-1), at most parallel at a time, and counts the outcomes.
func dialEach(n, parallel int, dial func(i int) error) (ok, failed int, firstErr error) {
	var mu sync.Mutex
	var wg sync.WaitGroup
	slots := make(chan struct{}, parallel)
	for i := 0; i < n; i++ {
		slots <- struct{}{}
		wg.Add(1)
		go func(i int) {
			defer func() { <-slots; wg.Done() }()
			err := dial(i)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				failed++
				if firstErr == nil {
					firstErr = err
				}
				return
			}
			ok++
		}(i)
	}
	wg.Wait()
	return ok, failed, firstErr
}
