"""systemd's end of sd_notify, for the specs: binds a unix datagram socket at argv[1] and
prints every datagram it receives as one JSON line (a list of its KEY=VALUE lines), flushed at
once. Ends when stdin closes (the spec is done) or after argv[2] seconds (a bound)."""
import json
import os
import select
import socket
import sys
import time

path, limit = sys.argv[1], float(sys.argv[2])
sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
sock.bind(path)
print(json.dumps(["LISTENING"]), flush=True)
deadline = time.monotonic() + limit
while time.monotonic() < deadline:
    ready, _, _ = select.select([sock, sys.stdin], [], [], deadline - time.monotonic())
    if sys.stdin in ready and not os.read(sys.stdin.fileno(), 1):
        break
    if sock in ready:
        print(json.dumps(sock.recv(4096).decode().splitlines()), flush=True)
sock.close()
os.unlink(path)
