package org.nettyrack.netty.listen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;

/** Accepting pauses at the cap and resumes when a connection closes; latecomers wait parked. */
class ConnectionLimitTest {
    private final ConnectionLimit limit = new ConnectionLimit(2);
    private final EmbeddedChannel listener = new EmbeddedChannel();

    @Test
    void pausesTheListenersAtTheCapAndResumesBelowIt() {
        limit.listen(listener);
        EmbeddedChannel a = new EmbeddedChannel();
        limit.accepted(a);
        assertTrue(listener.config().isAutoRead());
        limit.accepted(new EmbeddedChannel());
        assertFalse(listener.config().isAutoRead(), "at the cap: stop accepting");
        a.close();
        assertTrue(listener.config().isAutoRead(), "a connection closed: accept again");
        assertEquals(1, limit.open());
    }

    @Test
    void oneAcceptedPastTheCapWaitsUnreadForTheNextFreeSlot() {
        limit.listen(listener);
        EmbeddedChannel a = new EmbeddedChannel();
        limit.accepted(a);
        limit.accepted(new EmbeddedChannel());
        EmbeddedChannel late = new EmbeddedChannel();
        limit.accepted(late);
        assertFalse(late.config().isAutoRead(), "parked: nothing is read from it");
        assertEquals(1, limit.parked());
        a.close();
        assertTrue(late.config().isAutoRead(), "it takes the freed slot");
        assertFalse(listener.config().isAutoRead(), "still at the cap");
        assertEquals(2, limit.open());
        assertEquals(0, limit.parked());
    }

    @Test
    void aParkedConnectionThatGivesUpFreesNothing() {
        limit.accepted(new EmbeddedChannel());
        limit.accepted(new EmbeddedChannel());
        EmbeddedChannel late = new EmbeddedChannel();
        limit.accepted(late);
        late.close();
        assertEquals(2, limit.open());
        assertEquals(0, limit.parked());
    }

    @Test
    void aListenerAddedWhilePausedStartsPaused() {
        limit.accepted(new EmbeddedChannel());
        limit.accepted(new EmbeddedChannel());
        limit.listen(listener);
        assertFalse(listener.config().isAutoRead());
    }
}
