"""ActionCable clients (the `websockets` library speaking actioncable-v1-json) that a spec
scripts through JSON: they connect, subscribe to one channel, and some of them speak.

stdin: {"url": "ws://127.0.0.1:PORT/cable", "origin": "http://127.0.0.1:PORT",
        "clients": N, "channel": {"channel": "ChatChannel"},
        "speak": [{"from": I, "action": "speak", "data": {...}, "expect": {"text": "..."}}, ...],
        "timeout": SECONDS}
  Every client connects (offering actioncable-v1-json, as Rails' JavaScript client does), waits
  for the welcome, subscribes and waits for confirm_subscription. Then, one after the other,
  client I performs each action, and every client waits for a broadcast on the channel whose
  message includes "expect" (pings are counted, not reported).
stdout: {"clients": [{"subprotocol": ..., "welcome": {...}, "confirm": {...},
                      "received": [broadcast message, ...], "pings": N}, ...],
         "error": "what went wrong" | null}
"""

import asyncio
import json
import sys

from websockets.asyncio.client import connect


class Client:
    def __init__(self, spec):
        self.spec, self.ws = spec, None
        self.identifier = json.dumps(spec["channel"])
        self.report = {"subprotocol": None, "welcome": None, "confirm": None, "received": [], "pings": 0}

    async def open(self):
        self.ws = await connect(self.spec["url"], subprotocols=["actioncable-v1-json", "actioncable-unsupported"],
                                origin=self.spec["origin"], ping_interval=None)
        self.report["subprotocol"] = self.ws.subprotocol
        self.report["welcome"] = await self.next_control()
        await self.command("subscribe")
        self.report["confirm"] = await self.next_control()

    async def command(self, command, **fields):
        await self.ws.send(json.dumps({"command": command, "identifier": self.identifier, **fields}))

    async def next_control(self):
        """The next message that is neither a ping nor a broadcast."""
        while True:
            message = await self.receive()
            if "message" not in message:
                return message
            self.report["received"].append(message["message"])

    async def receive(self):
        while True:
            message = json.loads(await self.ws.recv())
            if message.get("type") != "ping":
                return message
            self.report["pings"] += 1

    async def wait_broadcast(self, expect):
        def matches(message):
            return isinstance(message, dict) and expect.items() <= message.items()

        while not any(matches(m) for m in self.report["received"]):
            message = await self.receive()
            if message.get("identifier") == self.identifier and "message" in message:
                self.report["received"].append(message["message"])


async def run(spec, clients):
    await asyncio.gather(*(client.open() for client in clients))
    for step in spec.get("speak", []):
        data = {"action": step["action"], **step.get("data", {})}
        await clients[step["from"]].command("message", data=json.dumps(data))
        await asyncio.gather(*(client.wait_broadcast(step["expect"]) for client in clients))


async def main():
    spec = json.load(sys.stdin)
    clients = [Client(spec) for _ in range(spec.get("clients", 1))]
    error = None
    try:
        await asyncio.wait_for(run(spec, clients), spec.get("timeout", 10))
    except asyncio.TimeoutError:
        error = f"timed out after {spec.get('timeout', 10)} s"
    except Exception as failure:  # reported to the spec, which shows it
        error = f"{type(failure).__name__}: {failure}"
    for client in clients:
        if client.ws is not None:
            await client.ws.close()
    json.dump({"clients": [client.report for client in clients], "error": error}, sys.stdout)


asyncio.run(main())
