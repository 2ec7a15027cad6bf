#!/usr/bin/env python3
"""A stand-in OTLP/HTTP collector for bench/otel: 127.0.0.1:PORT, answers every POST 200 with an
empty protobuf body (a valid ExportTraceServiceResponse), and counts the POSTs to /v1/traces,
their bytes, and the spans in them (each of nettyrack's spans carries the attribute key
http.request.method once). On SIGTERM it writes "posts bytes spans" to COUNTS_FILE and exits.

Usage: collector.py PORT COUNTS_FILE
"""
import signal
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

counts = {"posts": 0, "bytes": 0, "spans": 0}
lock = threading.Lock()


class Receiver(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("content-length", "0")))
        if self.path == "/v1/traces":
            with lock:
                counts["posts"] += 1
                counts["bytes"] += len(body)
                counts["spans"] += body.count(b"http.request.method")
        self.send_response(200)
        self.send_header("content-type", "application/x-protobuf")
        self.send_header("content-length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


def main():
    port, counts_file = int(sys.argv[1]), sys.argv[2]
    server = ThreadingHTTPServer(("127.0.0.1", port), Receiver)

    def stop(*_):
        with lock, open(counts_file, "w") as out:
            out.write("%d %d %d\n" % (counts["posts"], counts["bytes"], counts["spans"]))
        threading.Thread(target=server.shutdown).start()

    signal.signal(signal.SIGTERM, stop)
    server.serve_forever()


if __name__ == "__main__":
    main()
