package org.nettyrack.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The body deadline: a fixed time after the head, plus a second per minRate bytes received. */
class BodyDeadlineTest {
    private static final long S = 1_000_000_000L;

    @Test
    void aSilentBodyHasTheTimeoutAndNoMore() {
        BodyDeadline d = new BodyDeadline(0, 30_000, 1024);
        assertEquals(30 * S, d.remainingNanos(0));
        assertTrue(d.remainingNanos(30 * S) <= 0);
    }

    @Test
    void bytesReceivedEarnTimeAtTheMinimumRate() {
        BodyDeadline d = new BodyDeadline(0, 30_000, 1024);
        d.received(10 * 1024);
        assertEquals(10 * S, d.remainingNanos(30 * S));
        // A client at the minimum rate never runs out: after t seconds it has earned t seconds.
        BodyDeadline steady = new BodyDeadline(0, 1_000, 1000);
        for (int t = 1; t <= 1000; t++) {
            steady.received(1000);
            assertTrue(steady.remainingNanos(t * S) > 0);
        }
    }

    @Test
    void aTrickleRunsOut() {
        BodyDeadline d = new BodyDeadline(0, 30_000, 1024);
        long t = 0;
        while (d.remainingNanos(t) > 0) {
            d.received(1); // a byte a second
            t += S;
        }
        assertEquals(31, t / S);
    }

    @Test
    void aZeroRateMeansTheWholeBodyWithinTheTimeout() {
        BodyDeadline d = new BodyDeadline(5, 2_000, 0);
        d.received(1L << 40);
        assertEquals(5 + 2 * S - 3 * S, d.remainingNanos(3 * S));
    }
}
