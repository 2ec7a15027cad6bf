package org.nettyrack.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class RequestTimesTest {
    @Test
    void aStageNeverReachedSpansNothing() {
        RequestTimes times = RequestTimes.now();
        assertEquals(0, times.queueNanos());
        assertEquals(0, times.appNanos(System.nanoTime()));
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
        assertTrue(times.queueNanos() >= 0 && times.appNanos(end) >= 0 && times.wireNanos(end) >= 0);
        assertTrue(times.totalNanos(end) >= times.queueNanos() + times.appNanos(end) + times.wireNanos(end));
    }

    @Test
    void aResponseWrittenBeforeTheWorkerGotBackEndsItsAppTimeAtTheLastByte() {
        RequestTimes times = new RequestTimes(System.nanoTime(), 0);
        long before = System.nanoTime();
        times.started();
        long end = System.nanoTime();
        assertTrue(times.reachedApp());
        assertTrue(times.appNanos(end) <= end - before, "up to the last byte");
        assertEquals(0, times.wireNanos(end));
        times.returned(); // the worker gets back after the last byte went
        assertTrue(times.appNanos(end) <= end - before, "a return after the last byte does not stretch it");
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
