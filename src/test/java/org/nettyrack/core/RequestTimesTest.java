package org.nettyrack.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class RequestTimesTest {
    @Test
    void aStageNeverReachedSpansNothing() {
        RequestTimes times = RequestTimes.now();
        assertEquals(0, times.queueNanos());
        assertEquals(0, times.appNanos());
        assertEquals(0, times.wireNanos(System.nanoTime()));
        assertEquals(-1, times.upstreamQueueMicros(), "no X-Request-Start");
    }

    @Test
    void measuresEachStageInOrder() {
        RequestTimes times = new RequestTimes(System.nanoTime(), 0);
        times.dispatched();
        times.started();
        times.returned();
        long end = System.nanoTime();
        assertTrue(times.queueNanos() >= 0 && times.appNanos() >= 0 && times.wireNanos(end) >= 0);
        assertTrue(times.totalNanos(end) >= times.queueNanos() + times.appNanos() + times.wireNanos(end));
    }

    @Test
    void theUpstreamQueueRunsFromTheProxysStartToTheArrival() {
        long now = System.currentTimeMillis() * 1_000;
        RequestTimes times = new RequestTimes(System.nanoTime(), now - 5_000);
        assertTrue(times.upstreamQueueMicros() >= 5_000, "" + times.upstreamQueueMicros());
        assertEquals(-1, new RequestTimes(System.nanoTime(), now + 60_000_000).upstreamQueueMicros(),
            "a start in the future: the clocks disagree, nothing to say");
    }
}
