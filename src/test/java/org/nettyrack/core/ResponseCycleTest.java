package org.nettyrack.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The rules both doors' sinks share: start once, finish once, truncation, upgrade preconditions. */
class ResponseCycleTest {
    private final ResponseCycle cycle = new ResponseCycle();

    @Test
    void aStreamedResponseCommitsOnceAndIsWholeAtItsDeclaredLength() {
        cycle.start(true);
        cycle.declare(5);
        assertFalse(cycle.committed(), "a head chosen is not a head sent: an error may still replace it");
        assertTrue(cycle.commit());
        assertFalse(cycle.commit(), "the head leaves once");
        cycle.sent(2);
        cycle.sent(3);
        assertTrue(cycle.finish());
        assertFalse(cycle.finish(), "end after end does nothing");
        assertFalse(cycle.truncated());
        assertEquals(5, cycle.bytesSent());
    }

    @Test
    void aBodyShorterOrLongerThanDeclaredIsTruncated() {
        cycle.start(true);
        cycle.declare(5);
        cycle.sent(4);
        assertTrue(cycle.truncated());
        cycle.sent(2);
        assertTrue(cycle.truncated());
    }

    @Test
    void anUndeclaredOrBodilessResponseIsNeverTruncated() {
        cycle.start(true);
        cycle.sent(10);
        assertFalse(cycle.truncated(), "chunked: no length to miss");
        ResponseCycle head = new ResponseCycle();
        head.start(false);
        head.declare(100);
        assertFalse(head.truncated(), "HEAD, 204, 304: the declared length describes a body never sent");
    }

    @Test
    void nothingStartsTwice() {
        cycle.start(true);
        cycle.start(true); // a head chosen and not sent may be replaced (by a 500)
        cycle.commit();
        assertEquals("response already started", assertThrows(IllegalStateException.class, () -> cycle.start(true)).getMessage());
        assertThrows(IllegalStateException.class, cycle::handOver);
        ResponseCycle whole = new ResponseCycle();
        whole.whole(3);
        assertTrue(whole.committed() && whole.finished());
        assertThrows(IllegalStateException.class, () -> whole.start(true));
    }

    @Test
    void anUpgradeNeedsARequestThatAskedAndNothingStarted() {
        assertEquals("the request asked for no upgrade",
            assertThrows(IllegalStateException.class, () -> cycle.upgrade(Upgrade.NONE)).getMessage());
        assertFalse(cycle.committed());
        cycle.upgrade(Upgrade.WEBSOCKET);
        assertTrue(cycle.committed() && cycle.finished());
        assertFalse(cycle.finish(), "the connection left HTTP: no end to write");
        ResponseCycle started = new ResponseCycle();
        started.start(true);
        started.commit();
        assertThrows(IllegalStateException.class, () -> started.upgrade(Upgrade.SSE));
    }
}
