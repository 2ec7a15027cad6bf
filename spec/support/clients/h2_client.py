"""HTTP/2 client for the h2c specs: httpx with h2, over cleartext by prior knowledge.

Reads JSON on stdin: {"url": ..., "paths": [...], "mode": "concurrent" | "sse", "events": N,
"body": str or null, "timeout": seconds}. "concurrent" sends every path at once on ONE
connection and reports each answer; "sse" opens one event stream and reports its first N
"data:" lines. Prints one JSON report on stdout.
"""
import asyncio
import json
import sys

import httpx


async def concurrent(client, spec):
    async def one(path):
        if spec.get("body") is not None:
            r = await client.post(spec["url"] + path, content=spec["body"].encode())
        else:
            r = await client.get(spec["url"] + path)
        return {"status": r.status_code, "version": r.http_version, "body": r.text}

    answers = await asyncio.gather(*(one(p) for p in spec["paths"]))
    return {"answers": answers}


async def sse(client, spec):
    lines = []
    async with client.stream("GET", spec["url"] + spec["paths"][0], headers={"accept": "text/event-stream"}) as r:
        async for line in r.aiter_lines():
            if line.startswith("data:"):
                lines.append(line[5:].strip())
            if len(lines) >= spec["events"]:
                break
        return {"status": r.status_code, "version": r.http_version,
                "content_type": r.headers.get("content-type"), "data": lines}


async def main():
    spec = json.load(sys.stdin)
    async with httpx.AsyncClient(http1=False, http2=True, timeout=spec.get("timeout", 10)) as client:
        run = sse if spec["mode"] == "sse" else concurrent
        try:
            report = await run(client, spec)
        except Exception as e:  # reported, not raised: the spec prints it
            report = {"error": repr(e)}
    print(json.dumps(report))


asyncio.run(main())
