package org.nettyrack.core.push;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.nettyrack.core.Upgrade;
import org.nettyrack.core.push.PushLifecycle.Admission;
import org.nettyrack.core.push.PushLifecycle.State;

/**
 * Every step of a push connection's life, and every late event, as a transport drives it:
 * open → closing → closed → ended, writes against the limit, on_drained, the one on_close.
 */
class PushLifecycleTest {
    private final PushLifecycle lifecycle = new PushLifecycle(Upgrade.WEBSOCKET, 100, 1_000);

    @Test
    void anOpenConnectionTakesWritesAndCountsThemOut() {
        assertEquals(State.OPEN, lifecycle.state());
        assertTrue(lifecycle.isOpen());
        assertEquals(Admission.ACCEPTED, lifecycle.admit(10, false));
        assertEquals(Admission.ACCEPTED, lifecycle.admit(20, false));
        assertEquals(2, lifecycle.pending());
        assertEquals(30, lifecycle.queuedBytes());
        assertFalse(lifecycle.written(10), "no backlog: no on_drained");
        assertFalse(lifecycle.written(20));
        assertEquals(0, lifecycle.pending());
        assertNull(lifecycle.closeReason());
    }

    @Test
    void onDrainedIsDueWhenABackedUpBacklogEmptiesWhileOpen() {
        lifecycle.admit(10, true);
        assertTrue(lifecycle.written(10));
    }

    @Test
    void onDrainedIsNotDueOnceClosing() {
        lifecycle.admit(10, true);
        assertTrue(lifecycle.close(PushClose.DONE));
        assertFalse(lifecycle.written(10), "the app asked to close: no on_drained");
        assertEquals(0, lifecycle.queuedBytes(), "the write is still counted out");
    }

    @Test
    void aWriteOverTheLimitIsRefusedAndClosesWith1008() {
        assertEquals(Admission.ACCEPTED, lifecycle.admit(60, false));
        assertEquals(Admission.OVER_LIMIT, lifecycle.admit(60, false));
        assertEquals(State.CLOSING, lifecycle.state());
        assertEquals(PushClose.POLICY, lifecycle.closeReason().code());
        assertEquals(60, lifecycle.queuedBytes(), "the refused write counts nothing");
        assertEquals(-1, lifecycle.pending());
        assertFalse(lifecycle.close(PushClose.DONE), "already closing");
        assertEquals(PushClose.POLICY, lifecycle.closeReason().code(), "the first reason stays");
    }

    @Test
    void aWriteAfterCloseIsRefusedAndCountsNothing() {
        assertTrue(lifecycle.close(PushClose.DONE));
        assertEquals(Admission.NOT_OPEN, lifecycle.admit(1, false));
        assertEquals(0, lifecycle.queuedBytes());
        lifecycle.ended();
        assertEquals(Admission.NOT_OPEN, lifecycle.admit(1, false));
    }

    @Test
    void closeTwiceBeginsOnceAndKeepsTheFirstReason() {
        assertTrue(lifecycle.close(PushClose.SHUTDOWN));
        assertFalse(lifecycle.close(PushClose.DONE));
        assertFalse(lifecycle.close(PushClose.IDLE));
        assertEquals(PushClose.SHUTDOWN, lifecycle.closeReason());
        assertEquals(State.CLOSING, lifecycle.state());
        assertFalse(lifecycle.isOpen());
    }

    @Test
    void theCloseIsSentOnceAfterItWasAskedFor() {
        assertFalse(lifecycle.sendingClose(), "nothing to send while open");
        lifecycle.close(PushClose.DONE);
        assertTrue(lifecycle.sendingClose());
        assertEquals(State.CLOSED, lifecycle.state());
        assertFalse(lifecycle.sendingClose(), "once");
    }

    @Test
    void thePeersCloseIsAnsweredOnlyWhenWeHadNotBegun() {
        assertTrue(lifecycle.peerClosing(), "open: answer it");
        assertNull(lifecycle.closeReason(), "the peer began it");
        assertEquals(State.CLOSING, lifecycle.state());
        assertFalse(lifecycle.peerClosing(), "a second close frame is not answered");

        PushLifecycle ours = new PushLifecycle(Upgrade.WEBSOCKET, 100, 1_000);
        ours.close(PushClose.DONE);
        assertFalse(ours.peerClosing(), "our close frame went first: the peer's is its answer");
    }

    @Test
    void aLostTransportTakesNoMoreWritesAndSendsNoClose() {
        lifecycle.lost();
        assertEquals(State.CLOSED, lifecycle.state());
        assertEquals(Admission.NOT_OPEN, lifecycle.admit(1, false));
        assertFalse(lifecycle.close(PushClose.DONE));
        assertFalse(lifecycle.sendingClose());
        assertTrue(lifecycle.ended(), "its end is still reported, once");
    }

    @Test
    void endedIsReportedOnceWhoeverClosedFirst() {
        assertTrue(lifecycle.close(PushClose.DONE), "the app closes");
        assertTrue(lifecycle.sendingClose());
        assertTrue(lifecycle.ended(), "the transport reports the end: on_close is due");
        assertFalse(lifecycle.ended(), "a second report (container close after an error) is not");
        assertEquals(State.ENDED, lifecycle.state());

        PushLifecycle dropped = new PushLifecycle(Upgrade.SSE, 100, 1_000);
        assertTrue(dropped.ended(), "the client went first: on_close is due");
        assertFalse(dropped.close(PushClose.DONE), "the app's close after it is too late");
        assertFalse(dropped.ended());
    }

    @Test
    void aTimerFiringAfterTheEndFindsNothingToDo() {
        lifecycle.ended();
        assertFalse(lifecycle.isOpen(), "no keep-alive is written");
        assertFalse(lifecycle.close(PushClose.IDLE), "no idle close begins");
        assertFalse(lifecycle.sendingClose());
        lifecycle.lost();
        assertEquals(State.ENDED, lifecycle.state(), "nothing brings an ended connection back");
    }

    @Test
    void writesAdmittedBeforeTheEndAreStillCountedOut() {
        lifecycle.admit(10, true);
        lifecycle.ended();
        assertFalse(lifecycle.written(10), "no on_drained after the end");
        assertEquals(0, lifecycle.queuedBytes());
        assertEquals(-1, lifecycle.pending());
    }

    @Test
    void theIdlePolicyIsTheConnections() {
        assertEquals(1_000, lifecycle.idle().timeoutMillis());
        assertEquals(1_000, lifecycle.idle().readTimeoutMillis(), "a WebSocket is read-watched");
        assertEquals(0, new PushLifecycle(Upgrade.SSE, 100, 1_000).idle().readTimeoutMillis(), "an SSE stream is not");
    }
}
