package main

// A Server-Sent Events reader: a plain HTTP/1.1 GET with Accept: text/event-stream on its own
// connection (from a chosen source address, as dial.go's WebSockets), then one message per event:
// its data: lines joined with "\n" (WHATWG HTML, "Interpreting an event stream"). Comment lines
// (":", the server's keep-alive) and the other fields (id, event, retry) are skipped.

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/gorilla/websocket"
)

type sseConn struct {
	c    net.Conn
	body *bufio.Reader
}

func dialSSE(url string, src net.IP, timeout time.Duration) (*sseConn, error) {
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "text/event-stream")
	c, err := netDialer(src, timeout).Dial("tcp", req.URL.Host)
	if err != nil {
		return nil, err
	}
	c.SetDeadline(time.Now().Add(timeout))
	if err := req.Write(c); err != nil {
		c.Close()
		return nil, err
	}
	resp, err := http.ReadResponse(bufio.NewReaderSize(c, 1024), req)
	if err != nil {
		c.Close()
		return nil, err
	}
	if ct := resp.Header.Get("Content-Type"); resp.StatusCode != 200 || !strings.HasPrefix(ct, "text/event-stream") {
		c.Close()
		return nil, fmt.Errorf("SSE %s answered %d (%s)", url, resp.StatusCode, ct)
	}
	c.SetDeadline(time.Time{})
	return &sseConn{c: c, body: bufio.NewReaderSize(resp.Body, 1024)}, nil
}

// ReadMessage returns the next event's data, as a WebSocket text message.
func (s *sseConn) ReadMessage() (int, []byte, error) {
	var data []byte
	has := false
	for {
		line, err := s.body.ReadBytes('\n')
		if err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return 0, nil, err
		}
		line = bytes.TrimRight(line, "\r\n")
		switch {
		case len(line) == 0:
			if has {
				return websocket.TextMessage, data, nil
			}
		case bytes.HasPrefix(line, []byte("data:")):
			v := bytes.TrimPrefix(line[5:], []byte(" "))
			if has {
				data = append(data, '\n')
			}
			data, has = append(data, v...), true
		}
	}
}

func (s *sseConn) Close() error { return s.c.Close() }
