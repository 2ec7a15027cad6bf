"""An EventSource-like reader (aiohttp for HTTP) that a spec drives through JSON.

stdin: {"url": "http://127.0.0.1:PORT/path", "headers": {"Last-Event-ID": "7"},
        "events": N, "timeout": SECONDS}
  Sends Accept: text/event-stream (unless headers override it), then parses the stream as the
  HTML Living Standard's "Parsing an event stream" says, until N events were dispatched or the
  server ends the stream.
stdout: {"status": 200, "headers": {...},
         "events": [{"type": "message", "data": "...", "last_event_id": "...", "retry": ms|null}],
         "comments": N, "eof": bool, "error": "what went wrong" | null}
"""

import asyncio
import codecs
import json
import sys

import aiohttp


class EventStream:
    """The parser: fed decoded text, it collects dispatched events."""

    def __init__(self):
        self.events, self.comments = [], 0
        self.data, self.type, self.last_event_id, self.retry = [], "", "", None
        self.pending, self.started = "", False

    def feed(self, text):
        if not self.started and text:
            self.started = True
            text = text.removeprefix("\ufeff")
        self.pending += text
        while True:
            cut = min((i for i in (self.pending.find("\r"), self.pending.find("\n")) if i >= 0), default=-1)
            # A CR at the very end may be the first half of CRLF: wait for more.
            if cut < 0 or (self.pending[cut] == "\r" and cut == len(self.pending) - 1):
                return
            line = self.pending[:cut]
            skip = 2 if self.pending[cut:cut + 2] == "\r\n" else 1
            self.pending = self.pending[cut + skip:]
            self.line(line)

    def line(self, line):
        if line == "":
            return self.dispatch()
        if line.startswith(":"):
            self.comments += 1
            return None
        name, _, value = line.partition(":")
        value = value.removeprefix(" ")
        if name == "data":
            self.data.append(value)
        elif name == "event":
            self.type = value
        elif name == "id" and "\0" not in value:
            self.last_event_id = value
        elif name == "retry" and value.isdigit():
            self.retry = int(value)
        return None

    def dispatch(self):
        data, self.data = self.data, []
        event_type, self.type = self.type, ""
        if data:
            self.events.append({"type": event_type or "message", "data": "\n".join(data),
                                "last_event_id": self.last_event_id, "retry": self.retry})


async def read(spec, report, stream):
    headers = {"Accept": "text/event-stream", **spec.get("headers", {})}
    async with aiohttp.ClientSession() as session:
        async with session.get(spec["url"], headers=headers) as response:
            report["status"] = response.status
            report["headers"] = {k.lower(): v for k, v in response.headers.items()}
            decoder = codecs.getincrementaldecoder("utf-8")("replace")
            async for chunk in response.content.iter_any():
                stream.feed(decoder.decode(chunk))
                if len(stream.events) >= spec.get("events", 1):
                    return
            report["eof"] = True


async def main():
    spec = json.load(sys.stdin)
    report = {"status": None, "headers": {}, "events": [], "comments": 0, "eof": False, "error": None}
    stream = EventStream()
    try:
        await asyncio.wait_for(read(spec, report, stream), spec.get("timeout", 10))
    except asyncio.TimeoutError:
        report["error"] = f"timed out after {spec.get('timeout', 10)} s"
    except Exception as error:  # reported to the spec, which shows it
        report["error"] = f"{type(error).__name__}: {error}"
    report["events"], report["comments"] = stream.events, stream.comments
    json.dump(report, sys.stdout)


asyncio.run(main())
