package org.nettyrack.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.nettyrack.core.ServerConfig;

/** Slow heads get 408, idle keep-alive connections are closed, busy ones are left alone. */
class RequestTimeoutsTest {
    private final ServerConfig config = ServerConfig.builder()
        .headerTimeoutMillis(1_000).keepAliveTimeoutMillis(5_000).build();

    private PipelineHarness harness() {
        return new PipelineHarness(config, new EchoHandler(), task -> {
            task.run();
            return true;
        });
    }

    @Test
    void aHeadThatTakesTooLongGets408() {
        PipelineHarness h = harness();
        h.exchange("GET / HTTP/1.1\r\nHo");
        h.channel.advanceTimeBy(1_001, TimeUnit.MILLISECONDS);
        h.channel.runScheduledPendingTasks();
        assertEquals("HTTP/1.1 408 Request Timeout", PipelineHarness.statusLine(h.output()));
        assertFalse(h.channel.isOpen());
    }

    @Test
    void anIdleKeepAliveConnectionIsClosedQuietly() {
        PipelineHarness h = harness();
        h.exchange("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
        h.channel.advanceTimeBy(4_000, TimeUnit.MILLISECONDS);
        h.channel.runScheduledPendingTasks();
        assertTrue(h.channel.isOpen(), "the keep-alive timeout, not the header timeout, applies");
        h.channel.advanceTimeBy(1_001, TimeUnit.MILLISECONDS);
        h.channel.runScheduledPendingTasks();
        assertEquals("", h.output());
        assertFalse(h.channel.isOpen());
    }

    @Test
    void aRequestWithTheAppIsNotTimed() {
        PipelineHarness h = new PipelineHarness(config, new EchoHandler(), task -> true);
        h.exchange("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
        h.channel.advanceTimeBy(60, TimeUnit.SECONDS);
        h.channel.runScheduledPendingTasks();
        assertTrue(h.channel.isOpen());
    }
}
