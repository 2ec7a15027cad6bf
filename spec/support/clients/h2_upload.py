"""Raw HTTP/2 upload for the h2 body specs, with the h2 library over a plain socket (httpx
cannot show an early answer: it waits for window on a stream the server has ended).

Reads JSON on stdin: {"port": N, "size": bytes, "declare": bool (send content-length),
"content_length": N or null (declare this instead of the size: a wrong one),
"trailers": {name: value} or null, "timeout": seconds, "early": bool (send the first 65,535 bytes
of the body, the default window, in four frames 50 ms apart before reading the server's SETTINGS,
as a client that writes before it hears them; the server has consumed them when our SETTINGS
ACK reaches it)}. Sends one POST of `size` bytes
("0123456789abcdef" repeated) on stream 1, as fast as the server's window allows, with trailers
after the body when given. Prints one JSON report: {"status", "body", "reset" (the
RST_STREAM error code, or null), "sent" (body bytes sent), "ended" (the answer ended)}.
"""
import json
import select
import socket
import sys
import time

import h2.config
import h2.connection
import h2.events

spec = json.load(sys.stdin)
deadline = time.monotonic() + spec.get("timeout", 20)
size = spec["size"]
chunk = b"0123456789abcdef" * 1025  # the body is this pattern, repeated
sock = socket.create_connection(("127.0.0.1", spec["port"]))
conn = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True))
conn.initiate_connection()
headers = [(":method", "POST"), (":path", "/upload"), (":scheme", "http"), (":authority", "127.0.0.1")]
if spec.get("content_length") is not None:
    headers.append(("content-length", str(spec["content_length"])))
elif spec.get("declare"):
    headers.append(("content-length", str(size)))
conn.send_headers(1, headers)
report = {"status": None, "body": "", "reset": None, "sent": 0, "ended": False}
if spec.get("early"):
    sock.sendall(conn.data_to_send())
    for n in (16384, 16384, 16384, 16383):
        conn.send_data(1, chunk[report["sent"] % 16:][:n])
        report["sent"] += n
        sock.sendall(conn.data_to_send())
        time.sleep(0.05)
body_done = False
while time.monotonic() < deadline and report["reset"] is None and not (report["ended"] and body_done):
    sock.sendall(conn.data_to_send())
    stream_open = 1 in conn.streams and not conn.streams[1].closed
    can_send = stream_open and not body_done and conn.local_flow_control_window(1) > 0
    readable, _, _ = select.select([sock], [], [], 0 if can_send else 1)
    if readable:
        data = sock.recv(65536)
        if not data:
            break
        for event in conn.receive_data(data):
            if isinstance(event, h2.events.ResponseReceived):
                report["status"] = int(dict(event.headers)[b":status"])
            elif isinstance(event, h2.events.DataReceived):
                report["body"] += event.data.decode()
                conn.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
            elif isinstance(event, h2.events.StreamEnded):
                report["ended"] = True
            elif isinstance(event, h2.events.StreamReset):
                report["reset"] = event.error_code
    elif can_send:
        n = min(16384, conn.local_flow_control_window(1), conn.max_outbound_frame_size, size - report["sent"])
        piece = chunk[report["sent"] % 16:][:n]
        last = report["sent"] + n == size
        if last and spec.get("trailers"):
            conn.send_data(1, piece)
            conn.send_headers(1, list(spec["trailers"].items()), end_stream=True)
        else:
            conn.send_data(1, piece, end_stream=last)
        report["sent"] += n
        body_done = last
sock.sendall(conn.data_to_send())
sock.close()
print(json.dumps(report))
