"""A WebSocket client over HTTP/2 (RFC 8441 extended CONNECT), built from the `h2` library and
RFC 6455 framing written here: no published Python client speaks RFC 8441.

stdin: {"port": N, "tls": false, "path": "/ws", "authority": "127.0.0.1:N",
        "subprotocols": ["chat"], "headers": {...}, "streams": 1 (WebSockets opened at once on
        the one connection, each running the same steps), "timeout": SECONDS,
        "steps": [STEP, ...]}
  STEP: {"send": {"text": "str"} | {"binary": "base64"} | {"size": N}}  one message, one frame
        (size: N bytes of "a", in a text frame)
        {"recv": N}                     wait for N more messages
        {"close": {"code": 1000, "reason": "bye"}}  close frame; wait for the server's
        {"wait_close": true}            read until the server's close frame
stdout: {"settings": {"enable_connect_protocol": 0 | 1, ...},
         "streams": [{"status": 200, "headers": {...}, "received": [{"type", "data"} |
                     {"type", "size"}], "close": {"code", "reason"} | null, "ended": bool}],
         "connections": 1, "error": "what went wrong" | null}
"""

import base64
import json
import os
import select
import socket
import ssl
import struct
import sys
import time

import h2.config
import h2.connection
import h2.events
import h2.settings

ENABLE_CONNECT_PROTOCOL = 0x8


def frame(opcode, payload):
    mask = os.urandom(4)
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    length = len(payload)
    if length < 126:
        head = struct.pack("!BB", 0x80 | opcode, 0x80 | length)
    elif length < 65536:
        head = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, length)
    else:
        head = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, length)
    return head + mask + masked


class Stream:
    def __init__(self, stream_id, steps):
        self.id = stream_id
        self.steps = list(steps)
        self.buffer = b""
        self.status = None
        self.headers = {}
        self.received = []
        self.close = None
        self.ended = False
        self.expected = 0  # messages the steps so far waited for (others may have come already)
        self.fragments = []

    def parse(self):
        """Complete frames out of the buffer (server frames are not masked)."""
        while len(self.buffer) >= 2:
            first, second = self.buffer[0], self.buffer[1]
            length, offset = second & 0x7F, 2
            if length == 126:
                if len(self.buffer) < 4:
                    return
                length, offset = struct.unpack("!H", self.buffer[2:4])[0], 4
            elif length == 127:
                if len(self.buffer) < 10:
                    return
                length, offset = struct.unpack("!Q", self.buffer[2:10])[0], 10
            if len(self.buffer) < offset + length:
                return
            payload = self.buffer[offset:offset + length]
            self.buffer = self.buffer[offset + length:]
            opcode = first & 0x0F
            if opcode == 8:
                code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else None
                self.close = {"code": code, "reason": payload[2:].decode("utf-8", "replace")}
            elif opcode in (0, 1, 2):
                self.fragments.append((opcode, payload))
                if first & 0x80:
                    kind = self.fragments[0][0]
                    data = b"".join(p for _, p in self.fragments)
                    self.fragments = []
                    if len(data) > 1000:
                        self.received.append({"type": "text" if kind == 1 else "binary", "size": len(data)})
                    elif kind == 1:
                        self.received.append({"type": "text", "data": data.decode("utf-8")})
                    else:
                        self.received.append({"type": "binary", "data": base64.b64encode(data).decode()})


def run(spec):
    port = spec["port"]
    raw = socket.create_connection(("127.0.0.1", port), timeout=spec.get("timeout", 10))
    if spec.get("tls"):
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        context.set_alpn_protocols(["h2"])
        raw = context.wrap_socket(raw, server_hostname="localhost")
        if raw.selected_alpn_protocol() != "h2":
            return {"error": "ALPN chose %r" % raw.selected_alpn_protocol()}
    conn = h2.connection.H2Connection(config=h2.config.H2Configuration(client_side=True, header_encoding="utf-8"))
    conn.initiate_connection()
    raw.sendall(conn.data_to_send())
    report = {"settings": {}, "streams": [], "connections": 1, "error": None}
    deadline = time.monotonic() + spec.get("timeout", 10)
    streams = {}

    def pump(until):
        while not until():
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("timed out")
            ready, _, _ = select.select([raw], [], [], left)
            if not ready and not (spec.get("tls") and raw.pending()):
                continue
            data = raw.recv(65536)
            if not data:
                raise ConnectionError("connection closed")
            for event in conn.receive_data(data):
                if isinstance(event, h2.events.RemoteSettingsChanged):
                    for key, change in event.changed_settings.items():
                        name = {ENABLE_CONNECT_PROTOCOL: "enable_connect_protocol"}.get(int(key), str(int(key)))
                        report["settings"][name] = change.new_value
                elif isinstance(event, h2.events.ResponseReceived) and event.stream_id in streams:
                    s = streams[event.stream_id]
                    s.headers = dict(event.headers)
                    s.status = int(s.headers.pop(":status"))
                elif isinstance(event, h2.events.DataReceived) and event.stream_id in streams:
                    conn.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
                    s = streams[event.stream_id]
                    s.buffer += event.data
                    s.parse()
                elif isinstance(event, (h2.events.StreamEnded, h2.events.StreamReset)) and event.stream_id in streams:
                    streams[event.stream_id].ended = True
            raw.sendall(conn.data_to_send())

    pump(lambda: bool(report["settings"]))  # the server's SETTINGS come first
    if report["settings"].get("enable_connect_protocol") != 1:
        report["error"] = "the server did not send SETTINGS_ENABLE_CONNECT_PROTOCOL = 1"
        return report
    authority = spec.get("authority", "127.0.0.1:%d" % port)
    for _ in range(spec.get("streams", 1)):
        stream_id = conn.get_next_available_stream_id()
        headers = [(":method", "CONNECT"), (":protocol", "websocket"), (":scheme", "https" if spec.get("tls") else "http"),
                   (":path", spec.get("path", "/")), (":authority", authority), ("sec-websocket-version", "13")]
        if spec.get("subprotocols"):
            headers.append(("sec-websocket-protocol", ", ".join(spec["subprotocols"])))
        headers += list(spec.get("headers", {}).items())
        conn.send_headers(stream_id, headers)
        streams[stream_id] = Stream(stream_id, spec["steps"])
    raw.sendall(conn.data_to_send())
    pump(lambda: all(s.status is not None or s.ended for s in streams.values()))

    def send(s, payload_frame):
        while payload_frame:
            window = min(conn.local_flow_control_window(s.id), conn.max_outbound_frame_size)
            if window <= 0:
                pump(lambda: conn.local_flow_control_window(s.id) > 0)
                continue
            conn.send_data(s.id, payload_frame[:window])
            payload_frame = payload_frame[window:]
            raw.sendall(conn.data_to_send())

    for s in streams.values():
        if s.status != 200:
            continue
        for step in s.steps:
            if "send" in step:
                message = step["send"]
                if "text" in message:
                    send(s, frame(1, message["text"].encode()))
                elif "binary" in message:
                    send(s, frame(2, base64.b64decode(message["binary"])))
                else:
                    send(s, frame(1, b"a" * message["size"]))
            elif "recv" in step:
                s.expected += step["recv"]
                pump(lambda: len(s.received) >= s.expected or s.close is not None or s.ended)
            elif "close" in step:
                close = step["close"]
                send(s, frame(8, struct.pack("!H", close["code"]) + close.get("reason", "").encode()))
                pump(lambda: s.close is not None or s.ended)
            elif "wait_close" in step:
                pump(lambda: s.close is not None or s.ended)
    # The server ends each stream after the close handshake (END_STREAM, or a reset).
    try:
        pump(lambda: all(s.ended or s.status != 200 for s in streams.values()))
    except (TimeoutError, ConnectionError):
        pass
    for s in streams.values():
        report["streams"].append({"status": s.status, "headers": s.headers, "received": s.received,
                                  "close": s.close, "ended": s.ended})
    raw.close()
    return report


def main():
    spec = json.load(sys.stdin)
    try:
        report = run(spec)
    except Exception as e:  # reported, not raised: the spec prints it
        report = {"error": repr(e)}
    print(json.dumps(report))


main()
