"""A broadcast to many WebSockets, some of which never read (asyncio; `websockets` and aiohttp).

stdin: {"port": PORT, "path": "/ws?channel=C",            every socket subscribes there
        "readers": N, "slow": M,                          sockets that read everything / nothing
        "messages": K, "size": BYTES,                     the broadcast: K messages of that size
        "publish": "/publish?channel=C",                  POSTed K times, the message as the body
        "stats": "http://127.0.0.1:CPORT/stats", "token": "...",  the control endpoint
        "timeout": SECONDS}
  Opens the slow sockets first, on raw sockets with a 4 KB receive buffer: each sends the
  handshake, reads the 101 and then nothing more. Then the readers (the `websockets` client, no
  compression), each waiting for the app's "subscribed". Then publishes K messages of random
  base64 text, polls /stats until push.slow_closed has grown by M (or the timeout), and waits
  for every reader to have all K.
stdout: {"opened": N + M, "slow_closed": count, "readers_complete": how many got all K,
         "reader_min": fewest messages a reader got, "reader_bad": messages of a wrong size,
         "publish_seconds": time to POST all K, "closed_seconds": from the first POST until the
         count reached M, "error": "what went wrong" | null}
"""

import asyncio
import base64
import json
import os
import socket
import sys
import time

import aiohttp
from websockets.asyncio.client import connect

HANDSHAKE = ("GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
             "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")


async def slow_socket(loop, port, path):
    """A WebSocket that completes its handshake and then reads nothing."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.setblocking(False)
    await loop.sock_connect(sock, ("127.0.0.1", port))
    await loop.sock_sendall(sock, HANDSHAKE.format(path=path, port=port).encode())
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = await loop.sock_recv(sock, 1)  # byte by byte: nothing past the head is taken
        if not chunk:
            raise RuntimeError("a slow socket was closed during its handshake")
        head += chunk
    if not head.startswith(b"HTTP/1.1 101"):
        raise RuntimeError("handshake refused: " + head.split(b"\r\n")[0].decode())
    return sock


class Reader:
    def __init__(self, size):
        self.size, self.count, self.bad, self.ws = size, 0, 0, None

    async def open(self, url):
        self.ws = await connect(url, compression=None, max_size=None, open_timeout=60, ping_interval=None)
        first = await self.ws.recv()
        if first != "subscribed":
            raise RuntimeError("expected 'subscribed', got " + repr(first[:40]))

    async def read(self, wanted):
        while self.count < wanted:
            message = await self.ws.recv()
            if len(message) == self.size:
                self.count += 1
            else:
                self.bad += 1


async def stats_value(session, url, token):
    async with session.get(url, headers={"Authorization": "Bearer " + token}) as response:
        return (await response.json())["push"]["slow_closed"]


async def run(spec):
    loop = asyncio.get_running_loop()
    report = {"opened": 0, "slow_closed": None, "readers_complete": 0, "reader_min": None, "reader_bad": 0,
              "publish_seconds": None, "closed_seconds": None, "error": None}
    slow, readers = [], []
    deadline = time.monotonic() + spec["timeout"]
    url = "ws://127.0.0.1:%d%s" % (spec["port"], spec["path"])
    try:
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=spec["timeout"])) as session:
            before = await stats_value(session, spec["stats"], spec["token"])
            for start in range(0, spec["slow"], 200):
                batch = [slow_socket(loop, spec["port"], spec["path"]) for _ in range(min(200, spec["slow"] - start))]
                slow += await asyncio.gather(*batch)
            for start in range(0, spec["readers"], 200):
                batch = [Reader(spec["size"]) for _ in range(min(200, spec["readers"] - start))]
                await asyncio.gather(*(reader.open(url) for reader in batch))
                readers += batch
            report["opened"] = len(slow) + len(readers)
            reading = [asyncio.ensure_future(reader.read(spec["messages"])) for reader in readers]

            started = time.monotonic()
            publish = "http://127.0.0.1:%d%s" % (spec["port"], spec["publish"])
            for _ in range(spec["messages"]):
                body = base64.b64encode(os.urandom(spec["size"] * 3 // 4 + 3))[: spec["size"]]
                async with session.post(publish, data=body) as response:
                    if response.status != 204:
                        raise RuntimeError("POST %s: %d" % (spec["publish"], response.status))
            report["publish_seconds"] = round(time.monotonic() - started, 3)

            while time.monotonic() < deadline:
                report["slow_closed"] = await stats_value(session, spec["stats"], spec["token"]) - before
                if report["slow_closed"] >= spec["slow"]:
                    report["closed_seconds"] = round(time.monotonic() - started, 3)
                    break
                await asyncio.sleep(0.1)
            left = max(1.0, deadline - time.monotonic())
            await asyncio.wait(reading, timeout=left)
            for task in reading:
                if task.done() and task.exception():
                    raise task.exception()
    except Exception as e:  # the report says what went wrong
        report["error"] = "%s: %s" % (type(e).__name__, e)
    finally:
        report["readers_complete"] = sum(1 for r in readers if r.count >= spec["messages"])
        report["reader_min"] = min((r.count for r in readers), default=None)
        report["reader_bad"] = sum(r.bad for r in readers)
        for sock in slow:
            sock.close()
        await asyncio.gather(*(r.ws.close() for r in readers if r.ws), return_exceptions=True)
    return report


def main():
    spec = json.load(sys.stdin)
    print(json.dumps(asyncio.run(run(spec))))


if __name__ == "__main__":
    main()
