package org.nettyrack.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.nettyrack.core.ResponseHeaders;
import org.nettyrack.core.WorkerPool;
import org.nettyrack.core.config.ServerConfig;
import org.nettyrack.core.ops.Lifecycle;
import org.nettyrack.core.ops.ServerStats;
import org.nettyrack.core.push.RecordingEndpoint;

/** The counters the dispatcher and the push upgrade feed, as the real pipeline serves. */
class StatsCountingTest {
    private static ServerStats stats(PipelineHarness h) {
        return h.state.counters.snapshot(new Lifecycle(), h.state.channels.size(), h.state.activeRequests(),
            new WorkerPool.Load(0, 0, 1, 0), null);
    }

    @Test
    void countsAnsweredRequestsAndTheirServerErrors() {
        PipelineHarness h = new PipelineHarness((request, sink) -> {
            int status = request.target().equals("/fail") ? 500 : 200;
            byte[] body = "ok".getBytes(StandardCharsets.US_ASCII);
            sink.respond(status, new ResponseHeaders(), body, 0, body.length);
        });
        h.exchange("GET /a HTTP/1.1\r\nHost: x\r\n\r\n");
        assertEquals(1, stats(h).requestsTotal());
        h.exchange("GET /fail HTTP/1.1\r\nHost: x\r\n\r\n");
        assertEquals(2, stats(h).requestsTotal());
        assertEquals(1, stats(h).errors());
        assertEquals(0, stats(h).requestsInFlight());
    }

    @Test
    void countsRequestsRefusedForAFullQueue() {
        PipelineHarness h = new PipelineHarness(ServerConfig.builder().build(), (request, sink) -> { }, task -> false);
        String out = h.exchange("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
        assertEquals("HTTP/1.1 503 Service Unavailable", PipelineHarness.statusLine(out));
        assertEquals(1, stats(h).rejected());
        assertEquals(1, stats(h).errors(), "a 503 is a server error too");
    }

    @Test
    void countsAWebSocketSessionWhileItIsOpen() {
        RecordingEndpoint endpoint = new RecordingEndpoint();
        PipelineHarness h = new PipelineHarness(ServerConfig.builder().build(),
            (request, sink) -> sink.upgrade(0, new ResponseHeaders(), endpoint), task -> {
                task.run();
                return true;
            });
        h.exchange("GET /chat HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n");
        assertEquals(1, stats(h).websocketSessions());
        assertEquals(0, stats(h).requestsInFlight(), "an open session is not a request in flight");
        assertEquals(1, stats(h).requestsTotal(), "the 101 was answered");
        h.channel.close();
        h.channel.runPendingTasks();
        assertEquals(0, stats(h).websocketSessions());
    }

    @Test
    void countsAnSseStreamWhileItIsOpen() {
        RecordingEndpoint endpoint = new RecordingEndpoint();
        PipelineHarness h = new PipelineHarness(ServerConfig.builder().build(),
            (request, sink) -> sink.upgrade(200, new ResponseHeaders(), endpoint), task -> {
                task.run();
                return true;
            });
        h.exchange("GET /events HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n");
        assertEquals(1, stats(h).sseSessions());
        endpoint.connection.close();
        h.channel.runPendingTasks();
        assertEquals(0, stats(h).sseSessions());
    }

    @Test
    void countsAPushSessionClosedForAClientTooSlowForWhatItIsSent() {
        RecordingEndpoint endpoint = new RecordingEndpoint();
        PipelineHarness h = new PipelineHarness(ServerConfig.builder().maxPushQueue(1024).build(),
            (request, sink) -> sink.upgrade(200, new ResponseHeaders(), endpoint), task -> {
                task.run();
                return true;
            });
        h.exchange("GET /events HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n");
        h.channel.pipeline().addFirst(new ChannelOutboundHandlerAdapter() {
            @Override
            public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
                ReferenceCountUtil.release(msg); // a client that reads nothing: no write completes
            }
        });
        byte[] event = "x".repeat(600).getBytes(StandardCharsets.US_ASCII);
        assertTrue(endpoint.connection.send(event, true));
        assertFalse(endpoint.connection.send(event, true), "1,200 bytes waiting would pass --max-push-queue 1024");
        assertFalse(endpoint.connection.send(event, true), "closing: refused, not counted again");
        assertEquals(1, stats(h).slowConsumersClosed());
    }
}
