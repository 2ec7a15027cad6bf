// A WebSocket client (Node's `ws`, the library of most Node.js applications) that a spec scripts
// through JSON: it sends messages to an echo server one at a time and waits for each to come back.
//
// stdin: {"url": "ws://127.0.0.1:PORT/path", "compression": true (permessage-deflate offered,
//         ws's defaults) | false, "timeout": SECONDS,
//         "messages": [{"size": N, "random": false, "fragments": 1}, ...]}
//   A message is N bytes made here: text "aaa..." (compressible) or random binary
//   (incompressible), sent in that many frames. The next is sent once the echo is back.
// stdout: {"extensions": "permessage-deflate" | "",
//          "echoes": [{"sent": {"size", "sha256"}, "received": {"size", "sha256"} | null}],
//          "close": {"code": 1009, "reason": "..."} | null (1006: closed without a close frame),
//          "error": "what went wrong" | null}
// After the last echo the client closes with 1000; a message the server refuses ends the run.
"use strict";

const crypto = require("crypto");
const WebSocket = require("ws");

function digest(data) {
  return { size: data.length, sha256: crypto.createHash("sha256").update(data).digest("hex") };
}

function generate({ size, random = false }) {
  return random ? crypto.randomBytes(size) : Buffer.alloc(size, "a");
}

function send(ws, data, { random = false, fragments = 1 }) {
  const step = Math.ceil(data.length / fragments);
  for (let from = 0; from < data.length; from += step) {
    ws.send(data.subarray(from, from + step), { binary: random, fin: from + step >= data.length });
  }
}

function run(spec, report) {
  return new Promise((resolve) => {
    const ws = new WebSocket(spec.url, { perMessageDeflate: spec.compression, maxPayload: 0 });
    const messages = spec.messages.slice();
    const next = () => {
      if (messages.length === 0) {
        ws.close(1000);
        return;
      }
      const message = messages.shift();
      const data = generate(message);
      report.echoes.push({ sent: digest(data), received: null });
      send(ws, data, message);
    };
    ws.on("open", () => {
      report.extensions = ws.extensions;
      next();
    });
    ws.on("message", (data) => {
      report.echoes[report.echoes.length - 1].received = digest(data);
      next();
    });
    ws.on("close", (code, reason) => {
      report.close = { code, reason: reason.toString() };
      resolve();
    });
    ws.on("error", (error) => {
      report.error = `${error.code || error.name}: ${error.message}`;
    });
  });
}

async function main() {
  const spec = JSON.parse(require("fs").readFileSync(0, "utf8"));
  const report = { extensions: null, echoes: [], close: null, error: null };
  const timeout = new Promise((resolve) => setTimeout(resolve, (spec.timeout || 10) * 1000, "timeout"));
  if ((await Promise.race([run(spec, report), timeout])) === "timeout") {
    report.error = `timed out after ${spec.timeout || 10} s`;
  }
  process.stdout.write(JSON.stringify(report));
  process.exit(0);
}

main();
