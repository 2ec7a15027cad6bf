"""A WebSocket client (the `websockets` library) that a spec scripts through JSON.

stdin: {"url": "ws://127.0.0.1:PORT/path", "subprotocols": ["chat"], "headers": {...},
        "unix": "/path/to/app.sock" (connect there instead of to the URL's host and port),
        "steps": [STEP, ...], "timeout": SECONDS,
        "compression": "deflate" (permessage-deflate offered, websockets' default settings) | null,
        "digests": true (messages received reported by size and SHA-256, not by content),
        "cafile": "ca.pem" (for wss:// URLs: the only certificate authority trusted)}
       or a list of those: one connection after another, and a list of reports
  STEP: {"send": MESSAGE}                   one message
        {"send": {"fragments": [MESSAGE, ...]}}  one message in several frames (same type each)
        {"recv": N}                         wait for N more messages
        {"close": {"code": 1000, "reason": "bye"}}  closing handshake started by the client
        {"wait_close": true}                read (collecting messages) until the server closes
  MESSAGE: {"text": "str"} | {"binary": "base64"} | {"text_bytes": "base64"} (raw bytes in a
           text frame, to send invalid UTF-8)
           | {"generate": {"size": N, "random": false, "fragments": 1}}: N bytes made here, text
             "aaa..." (compressible) or random binary (incompressible), in that many frames
stdout: {"handshake": {"status": 101, "subprotocol": ..., "headers": {...}, "body": ...},
         "received": [{"type": "text", "data": "str"} | {"type": "binary", "data": "base64"}
                      | {"type": ..., "size": N, "sha256": "hex"} with digests],
         "sent": [{"size": N, "sha256": "hex"}] (generated messages),
         "close": {"rcvd": {"code", "reason"} | null, "sent": {...} | null} | null,
         "error": "what went wrong" | null}
"""

import asyncio
import base64
import functools
import hashlib
import json
import os
import ssl
import sys

from websockets.asyncio.client import connect, unix_connect
from websockets.exceptions import ConnectionClosed, InvalidStatus


def frame_data(message):
    if "text" in message:
        return message["text"], None
    if "binary" in message:
        return base64.b64decode(message["binary"]), None
    return base64.b64decode(message["text_bytes"]), True


def generated(spec):
    """The message, and what to pass to send(): the message, or a list of its fragments."""
    size, parts = spec["size"], spec.get("fragments", 1)
    data = os.urandom(size) if spec.get("random") else "a" * size
    if parts == 1:
        return data, data
    step = -(-size // parts)
    return data, [data[i:i + step] for i in range(0, size, step)]


def digest(data):
    raw = data.encode("utf-8") if isinstance(data, str) else data
    return {"size": len(raw), "sha256": hashlib.sha256(raw).hexdigest()}


def outgoing(message):
    if "fragments" in message:
        parts = [frame_data(part) for part in message["fragments"]]
        return [data for data, _ in parts], parts[0][1]
    return frame_data(message)


def incoming(data, digests):
    if digests:
        return {"type": "text" if isinstance(data, str) else "binary", **digest(data)}
    if isinstance(data, str):
        return {"type": "text", "data": data}
    return {"type": "binary", "data": base64.b64encode(data).decode("ascii")}


def close_frame(frame):
    return None if frame is None else {"code": frame.code, "reason": frame.reason}


def handshake(response):
    return {"status": response.status_code,
            "headers": {k.lower(): v for k, v in response.headers.raw_items()}}


class Client:
    def __init__(self, spec):
        self.spec, self.ws = spec, None
        self.report = {"handshake": None, "received": [], "sent": [], "close": None, "error": None}

    async def run(self):
        timeout = self.spec.get("timeout", 10)
        try:
            opener = functools.partial(unix_connect, self.spec["unix"]) if "unix" in self.spec else connect
            async with opener(
                self.spec["url"],
                subprotocols=self.spec.get("subprotocols"),
                additional_headers=self.spec.get("headers"),
                compression=self.spec.get("compression"),
                max_size=None,
                ping_interval=None,
                **tls(self.spec.get("cafile")),
                open_timeout=timeout,
                close_timeout=timeout,
            ) as ws:
                self.ws = ws
                self.report["handshake"] = handshake(ws.response)
                self.report["handshake"]["subprotocol"] = ws.subprotocol
                try:
                    await self.steps(self.spec.get("steps", []))
                except ConnectionClosed:
                    pass
                await ws.wait_closed()
        except InvalidStatus as rejected:
            self.report["handshake"] = handshake(rejected.response)
            self.report["handshake"]["body"] = (rejected.response.body or b"").decode("utf-8", "replace")
            self.report["error"] = str(rejected)

    async def steps(self, steps):
        for step in steps:
            if "send" in step and "generate" in step["send"]:
                message, frames = generated(step["send"]["generate"])
                self.report["sent"].append(digest(message))
                await self.ws.send(frames)
            elif "send" in step:
                data, text = outgoing(step["send"])
                await self.ws.send(data, text=text)
            elif "recv" in step:
                for _ in range(step["recv"]):
                    self.report["received"].append(incoming(await self.ws.recv(), self.spec.get("digests")))
            elif "close" in step:
                await self.ws.close(step["close"].get("code", 1000), step["close"].get("reason", ""))
            elif "wait_close" in step:
                while True:
                    self.report["received"].append(incoming(await self.ws.recv(), self.spec.get("digests")))

    def result(self):
        """The report, with the close frames as the connection saw them, even after an error."""
        if self.ws is not None:
            protocol = self.ws.protocol
            self.report["close"] = {"rcvd": close_frame(protocol.close_rcvd),
                                    "sent": close_frame(protocol.close_sent)}
        return self.report


async def connection(spec):
    client = Client(spec)
    try:
        await asyncio.wait_for(client.run(), spec.get("timeout", 10))
    except asyncio.TimeoutError:
        client.report["error"] = f"timed out after {spec.get('timeout', 10)} s"
    except Exception as error:  # reported to the spec, which shows it
        client.report["error"] = f"{type(error).__name__}: {error}"
    return client.result()


def tls(cafile):
    """connect()'s ssl argument for a wss:// URL whose server certificate cafile signs."""
    return {"ssl": ssl.create_default_context(cafile=cafile)} if cafile else {}


async def main():
    spec = json.load(sys.stdin)
    if isinstance(spec, list):
        json.dump([await connection(one) for one in spec], sys.stdout)
    else:
        json.dump(await connection(spec), sys.stdout)


asyncio.run(main())
