package main

// WebSockets over HTTP/2 (RFC 8441) for the echo measurement: no published Go client speaks it
// (gorilla/websocket and coder/websocket dial HTTP/1.1), so this one is built from x/net's
// HTTP/2 framer and RFC 6455 framing. A connection (h2c, prior knowledge) carries several
// streams; each stream is one WebSocket, opened by an extended CONNECT once the server's
// SETTINGS allowed it. The client keeps HTTP/2 flow control both ways: it waits for window
// before sending DATA, and gives back what it read with WINDOW_UPDATE once half of a window
// (1 MiB per stream, 16 MiB for the connection) was read.

import (
	"bytes"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"sync"
	"time"

	"github.com/gorilla/websocket"
	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
)

const settingEnableConnectProtocol http2.SettingID = 0x8

type h2conn struct {
	c        net.Conn
	fr       *http2.Framer
	wmu      sync.Mutex // frame writes and header encoding
	hbuf     bytes.Buffer
	henc     *hpack.Encoder
	mu       sync.Mutex // below: flow control and streams
	cond     *sync.Cond
	window   int64 // connection send window
	initial  int64 // the server's SETTINGS_INITIAL_WINDOW_SIZE
	streams  map[uint32]*h2stream
	nextID   uint32
	err      error
	settings chan bool // true once the server allows extended CONNECT
}

type h2stream struct {
	h       *h2conn
	id      uint32
	window  int64  // stream send window, under h.mu
	unacked uint32 // stream credit read and not yet given back (the reader's alone)
	status  chan int
	in      chan []byte
	buf     []byte
}

// dialH2 opens an h2c connection to addr and waits for the server's SETTINGS.
func dialH2(addr string, timeout time.Duration) (*h2conn, error) {
	c, err := net.DialTimeout("tcp", addr, timeout)
	if err != nil {
		return nil, err
	}
	h := &h2conn{c: c, window: 65535, initial: 65535, streams: map[uint32]*h2stream{}, nextID: 1,
		settings: make(chan bool, 1)}
	h.cond = sync.NewCond(&h.mu)
	h.fr = http2.NewFramer(c, c)
	h.fr.ReadMetaHeaders = hpack.NewDecoder(4096, nil)
	h.henc = hpack.NewEncoder(&h.hbuf)
	if _, err := c.Write([]byte(http2.ClientPreface)); err != nil {
		c.Close()
		return nil, err
	}
	if err := h.fr.WriteSettings(http2.Setting{ID: http2.SettingInitialWindowSize, Val: 1 << 20}); err != nil {
		c.Close()
		return nil, err
	}
	h.fr.WriteWindowUpdate(0, 1<<24) // a large connection window: reading never waits on it
	go h.read()
	select {
	case ok := <-h.settings:
		if !ok {
			c.Close()
			return nil, errors.New("the server does not allow extended CONNECT (SETTINGS_ENABLE_CONNECT_PROTOCOL)")
		}
	case <-time.After(timeout):
		c.Close()
		return nil, errors.New("no SETTINGS from the server")
	}
	return h, nil
}

func (h *h2conn) read() {
	seenSettings := false
	var unacked uint32 // connection credit read and not yet given back
	for {
		f, err := h.fr.ReadFrame()
		if err != nil {
			h.fail(err)
			return
		}
		switch f := f.(type) {
		case *http2.SettingsFrame:
			if f.IsAck() {
				continue
			}
			h.mu.Lock()
			if v, ok := f.Value(http2.SettingInitialWindowSize); ok {
				delta := int64(v) - h.initial
				h.initial = int64(v)
				for _, s := range h.streams {
					s.window += delta
				}
			}
			h.mu.Unlock()
			h.cond.Broadcast()
			h.wmu.Lock()
			h.fr.WriteSettingsAck()
			h.wmu.Unlock()
			if !seenSettings {
				seenSettings = true
				v, _ := f.Value(settingEnableConnectProtocol)
				h.settings <- v == 1
			}
		case *http2.MetaHeadersFrame:
			if s := h.stream(f.StreamID); s != nil {
				var status int
				fmt.Sscan(f.PseudoValue("status"), &status)
				select {
				case s.status <- status:
				default:
				}
			}
		case *http2.DataFrame:
			data := append([]byte(nil), f.Data()...)
			s := h.stream(f.StreamID)
			if n := uint32(f.Length); n > 0 {
				// Credit given back in batches, as browsers do: once half a window was read.
				unacked += n
				if s != nil {
					s.unacked += n
				}
				h.wmu.Lock()
				if unacked >= 1<<23 {
					h.fr.WriteWindowUpdate(0, unacked)
					unacked = 0
				}
				if s != nil && s.unacked >= 1<<19 {
					h.fr.WriteWindowUpdate(f.StreamID, s.unacked)
					s.unacked = 0
				}
				h.wmu.Unlock()
			}
			if s != nil && len(data) > 0 {
				s.in <- data
			}
		case *http2.WindowUpdateFrame:
			h.mu.Lock()
			if f.StreamID == 0 {
				h.window += int64(f.Increment)
			} else if s := h.streams[f.StreamID]; s != nil {
				s.window += int64(f.Increment)
			}
			h.mu.Unlock()
			h.cond.Broadcast()
		case *http2.PingFrame:
			if !f.IsAck() {
				h.wmu.Lock()
				h.fr.WritePing(true, f.Data)
				h.wmu.Unlock()
			}
		case *http2.RSTStreamFrame:
			if s := h.stream(f.StreamID); s != nil {
				close(s.in)
				h.mu.Lock()
				delete(h.streams, f.StreamID)
				h.mu.Unlock()
			}
		case *http2.GoAwayFrame:
			h.fail(fmt.Errorf("GOAWAY %v", f.ErrCode))
			return
		}
	}
}

func (h *h2conn) fail(err error) {
	h.mu.Lock()
	if h.err == nil {
		h.err = err
	}
	for id, s := range h.streams {
		close(s.in)
		delete(h.streams, id)
	}
	h.mu.Unlock()
	h.cond.Broadcast()
	select {
	case h.settings <- false:
	default:
	}
}

func (h *h2conn) stream(id uint32) *h2stream {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.streams[id]
}

// open starts a WebSocket on a new stream: CONNECT with :protocol websocket; a 200 accepts it.
func (h *h2conn) open(authority, path string, timeout time.Duration) (*h2stream, error) {
	h.wmu.Lock()
	id := h.nextID
	h.nextID += 2
	s := &h2stream{h: h, id: id, status: make(chan int, 1), in: make(chan []byte, 1024)}
	h.mu.Lock()
	s.window = h.initial
	h.streams[id] = s
	h.mu.Unlock()
	h.hbuf.Reset()
	for _, f := range [][2]string{{":method", "CONNECT"}, {":protocol", "websocket"}, {":scheme", "http"},
		{":path", path}, {":authority", authority}, {"sec-websocket-version", "13"}} {
		h.henc.WriteField(hpack.HeaderField{Name: f[0], Value: f[1]})
	}
	err := h.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: id, BlockFragment: h.hbuf.Bytes(), EndHeaders: true})
	h.wmu.Unlock()
	if err != nil {
		return nil, err
	}
	select {
	case status := <-s.status:
		if status != 200 {
			return nil, fmt.Errorf("extended CONNECT answered %d", status)
		}
		return s, nil
	case <-time.After(timeout):
		return nil, errors.New("no answer to the extended CONNECT")
	}
}

// take waits for send window on the stream and the connection and takes up to n bytes of it.
func (s *h2stream) take(n int) (int, error) {
	h := s.h
	h.mu.Lock()
	defer h.mu.Unlock()
	for h.err == nil && (h.window <= 0 || s.window <= 0) {
		h.cond.Wait()
	}
	if h.err != nil {
		return 0, h.err
	}
	m := int64(n)
	for _, limit := range []int64{h.window, s.window, 16384} {
		if limit < m {
			m = limit
		}
	}
	h.window -= m
	s.window -= m
	return int(m), nil
}

// WriteMessage sends one message as one masked frame, in DATA frames as the windows allow.
func (s *h2stream) WriteMessage(messageType int, data []byte) error {
	frame := wsFrame(byte(messageType), data)
	for len(frame) > 0 {
		n, err := s.take(len(frame))
		if err != nil {
			return err
		}
		s.h.wmu.Lock()
		err = s.h.fr.WriteData(s.id, false, frame[:n])
		s.h.wmu.Unlock()
		if err != nil {
			return err
		}
		frame = frame[n:]
	}
	return nil
}

// ReadMessage returns the next data message (fragments joined; control frames skipped).
func (s *h2stream) ReadMessage() (int, []byte, error) {
	var message []byte
	kind := 0
	for {
		fin, opcode, payload, err := s.frame()
		if err != nil {
			return 0, nil, err
		}
		switch {
		case opcode == websocket.CloseMessage:
			return 0, nil, errors.New("closed by the server")
		case opcode >= 8: // ping, pong
			continue
		case opcode != 0:
			kind = int(opcode)
		}
		message = append(message, payload...)
		if fin {
			return kind, message, nil
		}
	}
}

func (s *h2stream) frame() (bool, byte, []byte, error) {
	for {
		if len(s.buf) >= 2 {
			length, offset := int(s.buf[1]&0x7f), 2
			switch length {
			case 126:
				if len(s.buf) >= 4 {
					length, offset = int(binary.BigEndian.Uint16(s.buf[2:4])), 4
				} else {
					offset = -1
				}
			case 127:
				if len(s.buf) >= 10 {
					length, offset = int(binary.BigEndian.Uint64(s.buf[2:10])), 10
				} else {
					offset = -1
				}
			}
			if offset > 0 && len(s.buf) >= offset+length {
				fin, opcode := s.buf[0]&0x80 != 0, s.buf[0]&0x0f
				payload := s.buf[offset : offset+length]
				s.buf = s.buf[offset+length:]
				return fin, opcode, payload, nil
			}
		}
		select {
		case data, ok := <-s.in:
			if !ok {
				return false, 0, nil, errors.New("stream ended")
			}
			s.buf = append(s.buf, data...)
		case <-time.After(60 * time.Second):
			return false, 0, nil, errors.New("read timeout")
		}
	}
}

func (s *h2stream) Close() error {
	s.h.wmu.Lock()
	defer s.h.wmu.Unlock()
	return s.h.fr.WriteRSTStream(s.id, http2.ErrCodeCancel)
}

func wsFrame(opcode byte, payload []byte) []byte {
	var mask [4]byte
	rand.Read(mask[:])
	head := []byte{0x80 | opcode}
	switch n := len(payload); {
	case n < 126:
		head = append(head, 0x80|byte(n))
	case n < 65536:
		head = append(head, 0x80|126, byte(n>>8), byte(n))
	default:
		head = append(head, 0x80|127)
		head = binary.BigEndian.AppendUint64(head, uint64(n))
	}
	frame := append(head, mask[:]...)
	for i, b := range payload {
		frame = append(frame, b^mask[i%4])
	}
	return frame
}
