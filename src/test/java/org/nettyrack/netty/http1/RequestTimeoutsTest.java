package org.nettyrack.netty.http1;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.nettyrack.core.config.ServerConfig;
import org.nettyrack.netty.EchoHandler;
import org.nettyrack.netty.PipelineHarness;
import org.nettyrack.netty.pipeline.ConnectionEvent;

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
        h.elapse(1_001);
        assertEquals("HTTP/1.1 408 Request Timeout", PipelineHarness.statusLine(h.output()));
        assertFalse(h.channel.isOpen());
    }

    @Test
    void anIdleKeepAliveConnectionIsClosedQuietly() {
        PipelineHarness h = harness();
        h.exchange("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
        h.elapse(4_000);
        assertTrue(h.channel.isOpen(), "the keep-alive timeout, not the header timeout, applies");
        h.elapse(1_001);
        assertEquals("", h.output());
        assertFalse(h.channel.isOpen());
    }

    @Test
    void drainingClosesAConnectionQuietForTheGraceAtOnce() {
        PipelineHarness h = harness();
        h.exchange("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
        h.channel.advanceTimeBy(RequestTimeouts.DRAIN_GRACE_MILLIS, TimeUnit.MILLISECONDS);
        h.channel.pipeline().fireUserEventTriggered(ConnectionEvent.DRAIN);
        assertFalse(h.channel.isOpen());
    }

    @Test
    void drainingAnswersARequestArrivingWithinTheGraceThenCloses() {
        PipelineHarness h = harness();
        h.exchange("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
        h.state.draining = true;
        h.channel.pipeline().fireUserEventTriggered(ConnectionEvent.DRAIN);
        assertTrue(h.channel.isOpen(), "just answered: the client may be sending already");
        String out = h.exchange("GET /next HTTP/1.1\r\nHost: x\r\n\r\n");
        assertTrue(out.contains("connection: close") && out.endsWith("GET /next 0"), out);
        assertFalse(h.channel.isOpen());
    }

    @Test
    void drainingClosesAConnectionThatStaysQuietThroughTheGrace() {
        PipelineHarness h = harness();
        h.exchange("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
        h.channel.pipeline().fireUserEventTriggered(ConnectionEvent.DRAIN);
        h.elapse(RequestTimeouts.DRAIN_GRACE_MILLIS - 1);
        assertTrue(h.channel.isOpen());
        h.elapse(1);
        assertEquals("", h.output());
        assertFalse(h.channel.isOpen());
    }

    @Test
    void drainingLetsAHalfSentRequestFinish() {
        PipelineHarness h = new PipelineHarness(ServerConfig.builder().headerTimeoutMillis(10_000).build(),
            new EchoHandler(), task -> {
                task.run();
                return true;
            });
        h.exchange("GET / HTTP/1.1\r\nHo");
        h.channel.pipeline().fireUserEventTriggered(ConnectionEvent.DRAIN);
        h.elapse(RequestTimeouts.DRAIN_GRACE_MILLIS * 2);
        assertTrue(h.channel.isOpen(), "the header timeout, not the drain grace, applies");
    }

    @Test
    void aRequestWithTheAppIsNotTimed() {
        PipelineHarness h = new PipelineHarness(config, new EchoHandler(), task -> true);
        h.exchange("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
        h.elapse(60_000);
        assertTrue(h.channel.isOpen());
    }

    @Test
    void eachRequestStartsTheKeepAliveTimeoutAfresh() {
        PipelineHarness h = harness();
        for (int i = 0; i < 3; i++) { // a timer left from an earlier idle spell must not close it early
            h.exchange("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
            h.elapse(4_000);
            assertTrue(h.channel.isOpen(), "request " + i);
        }
        h.elapse(1_001);
        assertFalse(h.channel.isOpen());
    }

    @Test
    void aHeadTimeoutShorterThanTheIdleOneStillFiresOnTime() {
        PipelineHarness h = harness();
        h.exchange("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
        h.elapse(1_000);
        h.exchange("GET /slow HTTP/1.1\r\nHo"); // pending idle timer: 4 s away; the head's: 1 s
        h.elapse(1_001);
        assertTrue(h.output().contains("408 Request Timeout"), h.output());
        assertFalse(h.channel.isOpen());
    }

    @Test
    void aHeadTimeoutLongerThanTheIdleOneIsNotCutShort() {
        PipelineHarness h = new PipelineHarness(ServerConfig.builder().headerTimeoutMillis(30_000)
            .keepAliveTimeoutMillis(20_000).build(), new EchoHandler(), task -> {
                task.run();
                return true;
            });
        h.exchange("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
        h.elapse(10_000);
        h.exchange("GET /slow HTTP/1.1\r\nHo"); // the idle timer (10 s away) fires first and follows on
        h.elapse(29_000);
        assertTrue(h.channel.isOpen(), "the idle timer must not close a connection sending its head");
        h.elapse(1_001);
        assertTrue(h.output().contains("408 Request Timeout"), h.output());
        assertFalse(h.channel.isOpen());
    }
}
