package org.nettyrack.netty.exchange;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.nettyrack.core.config.ServerConfig;
import org.nettyrack.netty.EchoHandler;
import org.nettyrack.netty.PipelineHarness;

/** A request head and its body become one complete request, or a 413 / 408 refusal. */
class BodyCollectorTest {
    private final EchoHandler app = new EchoHandler();

    @Test
    void aBodyThatStopsArrivingGets408() {
        PipelineHarness h = new PipelineHarness(ServerConfig.builder().bodyTimeoutMillis(2_000).bodyMinRate(1024).build(),
            app, task -> {
                task.run();
                return true;
            });
        h.exchange("POST /up HTTP/1.1\r\nHost: x\r\nContent-Length: 4096\r\n\r\n" + "a".repeat(1024));
        h.channel.advanceTimeBy(2_900, TimeUnit.MILLISECONDS); // 2 s, plus 1 s earned by 1 KiB
        h.channel.runScheduledPendingTasks();
        assertEquals("", h.output());
        h.channel.advanceTimeBy(200, TimeUnit.MILLISECONDS);
        h.channel.runScheduledPendingTasks();
        assertEquals("HTTP/1.1 408 Request Timeout", PipelineHarness.statusLine(h.output()));
        assertFalse(h.channel.isOpen());
        assertTrue(app.seen.isEmpty());
    }

    @Test
    void aBodyArrivingAtTheMinimumRateIsNeverCutOff() {
        PipelineHarness h = new PipelineHarness(ServerConfig.builder().bodyTimeoutMillis(1_000).bodyMinRate(1024).build(),
            app, task -> {
                task.run();
                return true;
            });
        h.exchange("POST /up HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n");
        for (int i = 0; i < 60; i++) { // a KiB a second, for a minute: always ahead of the deadline
            assertTrue(h.exchange("400\r\n" + "a".repeat(1024) + "\r\n").isEmpty());
            h.channel.advanceTimeBy(999, TimeUnit.MILLISECONDS);
            h.channel.runScheduledPendingTasks();
        }
        assertTrue(h.exchange("0\r\n\r\n").endsWith("POST /up 61440"));
        assertTrue(h.channel.isOpen());
    }

    @Test
    void refusesAHeadRequestWithoutABody() {
        PipelineHarness h = new PipelineHarness(ServerConfig.builder().maxBodySize(1000).build(), app, task -> {
            task.run();
            return true;
        });
        String out = h.exchange("HEAD / HTTP/1.1\r\nHost: x\r\nContent-Length: 2000\r\n\r\n");
        assertTrue(out.startsWith("HTTP/1.1 413 ") && out.endsWith("\r\n\r\n"), out);
    }

    @Test
    void collectsChunkedBodies() {
        String out = new PipelineHarness(app).exchange("POST /up HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n");
        assertTrue(out.endsWith("POST /up 11"), out);
    }

    @Test
    void refusesChunkedBodiesThatGrowPastTheLimit() {
        PipelineHarness h = new PipelineHarness(ServerConfig.builder().maxBodySize(8).build(), app, task -> {
            task.run();
            return true;
        });
        String out = h.exchange("POST /up HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n");
        assertEquals("HTTP/1.1 413 Request Entity Too Large", PipelineHarness.statusLine(out));
        assertTrue(app.seen.isEmpty());
        assertFalse(h.channel.isOpen());
    }
}
