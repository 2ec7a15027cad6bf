package org.nettyrack.core.push;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.nettyrack.core.Upgrade;
import org.nettyrack.core.push.IdlePolicy.Action;

/** Keep-alives for idle connections, and when a silent WebSocket is given up. */
class IdlePolicyTest {
    @Test
    void aSilentWebSocketIsPingedThenClosed() {
        IdlePolicy idle = new IdlePolicy(Upgrade.WEBSOCKET, 3_000);
        assertEquals(Action.KEEP_ALIVE, idle.silent(false), "one timeout of silence: a ping");
        assertEquals(Action.CLOSE, idle.silent(false), "silent through the ping: closed");
        assertEquals(PushClose.GOING_AWAY, PushClose.IDLE.code());
    }

    @Test
    void anythingHeardStartsTheSilenceOver() {
        IdlePolicy idle = new IdlePolicy(Upgrade.WEBSOCKET, 3_000);
        assertEquals(Action.KEEP_ALIVE, idle.silent(false));
        idle.heard();
        assertEquals(Action.KEEP_ALIVE, idle.silent(false), "pinged again, not closed");
    }

    @Test
    void aClientTheServerStoppedReadingIsNotSilent() {
        IdlePolicy idle = new IdlePolicy(Upgrade.WEBSOCKET, 3_000);
        assertEquals(Action.KEEP_ALIVE, idle.silent(false));
        assertEquals(Action.NOTHING, idle.silent(true), "reading paused while the app catches up");
        assertEquals(Action.CLOSE, idle.silent(false), "the ping still stands");
    }

    @Test
    void nothingWrittenForATimeoutSendsAKeepAlive() {
        IdlePolicy idle = new IdlePolicy(Upgrade.SSE, 3_000);
        assertEquals(Action.KEEP_ALIVE, idle.quiet());
        assertEquals(Action.KEEP_ALIVE, idle.quiet(), "every time");
    }

    @Test
    void timersFollowTheTimeoutAndSseClientsAreNeverWatchedForSilence() {
        IdlePolicy ws = new IdlePolicy(Upgrade.WEBSOCKET, 3_000);
        assertEquals(3_000, ws.readTimeoutMillis());
        assertEquals(3_000, ws.writeTimeoutMillis());
        IdlePolicy sse = new IdlePolicy(Upgrade.SSE, 3_000);
        assertEquals(0, sse.readTimeoutMillis(), "SSE clients never send");
        assertEquals(3_000, sse.writeTimeoutMillis());
        sse.timeoutMillis(700);
        assertEquals(700, sse.writeTimeoutMillis());
    }

    @Test
    void theCloseWaitIsTheTimeoutAtMostFiveSeconds() {
        assertEquals(5_000, new IdlePolicy(Upgrade.WEBSOCKET, 40_000).closeWaitMillis());
        assertEquals(2_500, new IdlePolicy(Upgrade.WEBSOCKET, 2_500).closeWaitMillis());
    }

    @Test
    void timeoutsBelowATenthOfASecondAreRefused() {
        IdlePolicy idle = new IdlePolicy(Upgrade.WEBSOCKET, 40_000);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> idle.timeoutMillis(99));
        assertEquals("timeout must be at least 0.1 s, got 99 ms", e.getMessage());
        assertEquals(40_000, idle.timeoutMillis(), "unchanged");
        assertThrows(IllegalArgumentException.class, () -> new IdlePolicy(Upgrade.SSE, 0));
        idle.timeoutMillis(IdlePolicy.MIN_TIMEOUT_MILLIS);
        assertEquals(100, idle.timeoutMillis());
    }
}
