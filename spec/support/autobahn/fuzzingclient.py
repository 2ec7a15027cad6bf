"""Runs Autobahn|Testsuite cases with kosoku's fuzzing client against a WebSocket echo server.

argv: URL CASE... -- e.g. ws://127.0.0.1:41234 "9.1.*" (ids or globs, as kosoku's --include takes)
stdout: {"seconds": wall time,
         "results": [{"id", "behavior", "behavior_close", "passed", "duration_ms",
                      and, for a case kosoku did not pass, what it expected and saw}]}
The verdicts are Autobahn's labels: behavior OK / NON-STRICT / INFORMATIONAL / UNIMPLEMENTED /
FAILED / ERROR, behavior_close OK / INFORMATIONAL / UNCLEAN / WRONG CODE / FAILED /
FAILED BY CLIENT. One case at a time (kosoku's concurrency 1), so 9.x timings mean something.
"""

import asyncio
import json
import os
import sys
import time

from kosoku import FailureError, run_fuzzingclient


def short(value, limit=160):
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + f"... ({len(text)} chars)"


def entry(result):
    row = {"id": result.case_id, "behavior": result.behavior.value,
           "behavior_close": result.behavior_close.value, "passed": result.passed,
           "duration_ms": result.duration}
    if not result.passed:
        row.update(
            description=result.description, expectation=result.expectation,
            result=result.result, result_close=result.result_close,
            expected_close=result.expected_close, remote_close_code=result.remote_close_code,
            remote_close_reason=result.remote_close_reason, local_close_code=result.local_close_code,
            was_clean=result.was_clean, was_not_clean_reason=result.was_not_clean_reason,
            received=[short(event) for event in (result.received or [])[:5]],
            expected={k: [short(event) for event in v[:5]] for k, v in (result.expected or {}).items()},
        )
    return row


async def main(url, cases):
    started = time.monotonic()
    try:
        results = await run_fuzzingclient(url, cases, None, concurrency=1)
    except FailureError as failure:  # raised when a case failed; it carries every result
        results = failure.results
    return {"seconds": round(time.monotonic() - started, 3), "results": [entry(r) for r in results]}


report = asyncio.run(main(sys.argv[1], sys.argv[2:]))
sys.stdout.write(json.dumps(report))
sys.stdout.flush()
# kosoku 0.1.0's native runtime sometimes aborts (SIGABRT) while the interpreter shuts down,
# after the run: leave without that teardown once the report is out.
os._exit(0)
