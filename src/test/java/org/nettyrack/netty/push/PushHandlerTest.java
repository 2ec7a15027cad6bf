package org.nettyrack.netty.push;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.compression.DecompressionException;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CorruptedWebSocketFrameException;
import io.netty.handler.codec.http.websocketx.PingWebSocketFrame;
import io.netty.handler.codec.http.websocketx.PongWebSocketFrame;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketCloseStatus;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.handler.timeout.IdleStateHandler;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.zip.DataFormatException;
import org.junit.jupiter.api.Test;
import org.nettyrack.core.Upgrade;
import org.nettyrack.core.Workers;
import org.nettyrack.core.config.ServerConfig;
import org.nettyrack.core.push.IdlePolicy;
import org.nettyrack.core.push.PushClose;
import org.nettyrack.core.push.PushSession;
import org.nettyrack.core.push.RecordingEndpoint;
import org.nettyrack.netty.CloseFrames;
import org.nettyrack.netty.pipeline.ConnectionEvent;
import org.nettyrack.netty.pipeline.ServerState;

/** What arrives on an upgraded connection, turned into session events, pongs and closes. */
class PushHandlerTest {
    private static final int LIMIT = 1000;
    private static final Workers DIRECT = task -> {
        task.run();
        return true;
    };

    private final EmbeddedChannel channel = new EmbeddedChannel();
    private final RecordingEndpoint endpoint = new RecordingEndpoint();
    private final ByteArrayOutputStream errors = new ByteArrayOutputStream();
    private final ServerState server = new ServerState(
        ServerConfig.builder().maxMessageSize(LIMIT).errorLog(errors).build(), null, DIRECT);
    private NettyPushConnection connection;

    private EmbeddedChannel pipeline(PushFraming framing, Workers workers) {
        connection = new NettyPushConnection(channel, framing, 1024 * 1024, 40_000);
        PushSession session = new PushSession(workers, endpoint, connection,
            () -> channel.config().setAutoRead(true), server.errorLog);
        PushHandler handler = new PushHandler(connection, session, server, server.activeRequest());
        connection.attach(session, () -> { });
        channel.pipeline().addLast("push", handler);
        return channel;
    }

    private EmbeddedChannel websocket() {
        return pipeline(PushFraming.WEBSOCKET, DIRECT);
    }

    private static ByteBuf utf8(String s) {
        return Unpooled.copiedBuffer(s, StandardCharsets.UTF_8);
    }

    private int closeCode() {
        return CloseFrames.nextCode(channel);
    }

    @Test
    void wholeMessagesGoToOnMessage() {
        websocket();
        TextWebSocketFrame text = new TextWebSocketFrame(utf8("h\u00e9"));
        BinaryWebSocketFrame binary = new BinaryWebSocketFrame(utf8("raw"));
        channel.writeInbound(text, binary);
        assertEquals(List.of("text:h\u00e9", "binary:raw"), endpoint.events);
        assertEquals(0, text.refCnt(), "frames are released");
        assertEquals(0, binary.refCnt());
        assertNull(channel.readInbound(), "nothing passes the last handler");
    }

    @Test
    void aPingIsAnsweredWithAPongCarryingTheSamePayload() {
        websocket();
        PingWebSocketFrame ping = new PingWebSocketFrame(utf8("are you there"));
        channel.writeInbound(ping);
        PongWebSocketFrame pong = assertInstanceOf(PongWebSocketFrame.class, channel.readOutbound());
        assertEquals("are you there", pong.content().toString(StandardCharsets.UTF_8));
        pong.release();
        assertEquals(0, ping.refCnt(), "the payload is shared by ping and pong, and freed with the pong");
        assertTrue(endpoint.events.isEmpty(), "pings are not messages");
    }

    @Test
    void thePeersCloseFrameIsAnsweredAndOnCloseRunsOnce() {
        websocket();
        channel.writeInbound(new CloseWebSocketFrame(4000, "bye"));
        assertEquals(4000, closeCode());
        assertFalse(channel.isOpen());
        assertEquals(List.of("close"), endpoint.events);
        assertEquals(0, server.activeRequests());
        channel.close();
        assertEquals(List.of("close"), endpoint.events);
    }

    @Test
    void aCloseFrameWithoutStatusIsAnsweredWith1000() {
        websocket();
        channel.writeInbound(new CloseWebSocketFrame());
        assertEquals(PushClose.NORMAL, closeCode());
    }

    @Test
    void drainRunsOnShutdownThenClosesWith1001() {
        websocket();
        List<String> seenAtShutdown = new ArrayList<>();
        endpoint.hook = event -> {
            if (event.equals("shutdown")) {
                seenAtShutdown.add("open=" + connection.isOpen() + " outbound=" + channel.outboundMessages().size());
            }
        };
        channel.pipeline().fireUserEventTriggered(ConnectionEvent.DRAIN);
        assertEquals(List.of("open=true outbound=0"), seenAtShutdown, "on_shutdown runs before the close");
        assertEquals(PushClose.GOING_AWAY, closeCode());
        assertFalse(connection.isOpen());

        channel.advanceTimeBy(connection.closeWaitMillis(), TimeUnit.MILLISECONDS);
        channel.runScheduledPendingTasks();
        assertFalse(channel.isOpen(), "a client that never answers the close is dropped");
        assertEquals(List.of("shutdown", "close"), endpoint.events);
    }

    @Test
    void onShutdownMayStillWriteBeforeTheClose() {
        websocket();
        endpoint.hook = event -> {
            if (event.equals("shutdown")) {
                connection.send("bye".getBytes(StandardCharsets.UTF_8), true);
            }
        };
        channel.pipeline().fireUserEventTriggered(ConnectionEvent.DRAIN);
        TextWebSocketFrame bye = assertInstanceOf(TextWebSocketFrame.class, channel.readOutbound());
        bye.release();
        assertEquals(PushClose.GOING_AWAY, closeCode());
    }

    @Test
    void aSilentWebSocketIsPingedThenClosedWith1001() {
        websocket();
        channel.pipeline().fireUserEventTriggered(IdleStateEvent.FIRST_READER_IDLE_STATE_EVENT);
        assertInstanceOf(PingWebSocketFrame.class, channel.readOutbound());
        channel.pipeline().fireUserEventTriggered(IdleStateEvent.READER_IDLE_STATE_EVENT);
        assertEquals(PushClose.GOING_AWAY, closeCode());
    }

    @Test
    void anythingReadResetsTheIdlePing() {
        websocket();
        channel.pipeline().fireUserEventTriggered(IdleStateEvent.FIRST_READER_IDLE_STATE_EVENT);
        channel.writeInbound(new PongWebSocketFrame());
        channel.pipeline().fireUserEventTriggered(IdleStateEvent.READER_IDLE_STATE_EVENT);
        assertInstanceOf(PingWebSocketFrame.class, channel.readOutbound());
        assertInstanceOf(PingWebSocketFrame.class, channel.readOutbound(), "pinged again, not closed");
        assertTrue(connection.isOpen());
    }

    @Test
    void nothingWrittenForATimeoutSendsAKeepAlive() {
        websocket();
        channel.pipeline().fireUserEventTriggered(IdleStateEvent.FIRST_WRITER_IDLE_STATE_EVENT);
        assertInstanceOf(PingWebSocketFrame.class, channel.readOutbound());
    }

    @Test
    void anIdleSseStreamGetsAComment() {
        pipeline(PushFraming.SSE, DIRECT);
        channel.pipeline().fireUserEventTriggered(IdleStateEvent.FIRST_WRITER_IDLE_STATE_EVENT);
        HttpContent comment = assertInstanceOf(HttpContent.class, channel.readOutbound());
        assertEquals(":\n\n", comment.content().toString(StandardCharsets.US_ASCII));
        comment.release();
    }

    @Test
    void anOverlongMessageClosesWith1009() {
        websocket();
        channel.pipeline().fireExceptionCaught(new TooLongFrameException("content length exceeded"));
        assertEquals(PushClose.TOO_BIG, closeCode());
        assertTrue(channel.isOpen(), "waits for the client's close frame");
    }

    @Test
    void aMessageOverTheLimitClosesWith1009AndNeverReachesTheApp() {
        websocket();
        channel.writeInbound(new BinaryWebSocketFrame(Unpooled.wrappedBuffer(new byte[LIMIT])));
        assertEquals(1, endpoint.messages.size(), "the limit itself is allowed");
        BinaryWebSocketFrame over = new BinaryWebSocketFrame(Unpooled.wrappedBuffer(new byte[LIMIT + 1]));
        channel.writeInbound(over);
        assertEquals(PushClose.TOO_BIG, closeCode());
        assertEquals(1, endpoint.messages.size());
        assertEquals(0, over.refCnt());
        assertTrue(channel.isOpen(), "waits for the client's close frame");
    }

    @Test
    void aProtocolViolationClosesWithItsStatusCode() {
        websocket();
        channel.pipeline().fireExceptionCaught(
            new CorruptedWebSocketFrameException(WebSocketCloseStatus.PROTOCOL_ERROR, "unmasked frame"));
        assertEquals(1002, closeCode());
        assertFalse(connection.isOpen());
        assertEquals("", errors.toString(StandardCharsets.UTF_8), "the client's fault: not logged");
    }

    @Test
    void compressedDataThatDoesNotInflateClosesWith1007() {
        websocket();
        channel.pipeline().fireExceptionCaught(
            new DecompressionException("decompression failure", new DataFormatException("invalid block type")));
        assertEquals(PushClose.INVALID_DATA, closeCode());
    }

    @Test
    void anUnexpectedFailureClosesWith1011AndIsLogged() {
        websocket();
        channel.pipeline().fireExceptionCaught(new IllegalStateException("a bug"));
        assertEquals(PushClose.INTERNAL_ERROR, closeCode());
        String log = errors.toString(StandardCharsets.UTF_8);
        assertTrue(log.startsWith("nettyrack: push connection closed with 1011: java.lang.IllegalStateException: a bug"),
            log);
        channel.pipeline().fireExceptionCaught(new IllegalStateException("again"));
        assertEquals(log, errors.toString(StandardCharsets.UTF_8), "logged once, when it ended the connection");
    }

    @Test
    void aResetConnectionClosesWithoutACloseFrameAndRunsOnClose() {
        websocket();
        channel.pipeline().fireExceptionCaught(new java.io.IOException("connection reset"));
        assertFalse(channel.isOpen());
        assertNull(channel.readOutbound(), "nobody to tell");
        assertEquals(List.of("close"), endpoint.events);
        assertEquals("", errors.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aBackedUpApplicationPausesReadingUntilTheSessionResumes() {
        List<Runnable> tasks = new ArrayList<>();
        pipeline(PushFraming.WEBSOCKET, tasks::add);
        for (int i = 0; i < 100 && channel.config().isAutoRead(); i++) {
            channel.writeInbound(new TextWebSocketFrame("m" + i));
        }
        assertFalse(channel.config().isAutoRead(), "reading paused while the application is behind");
        while (!tasks.isEmpty()) {
            tasks.remove(0).run();
        }
        assertTrue(channel.config().isAutoRead(), "reading resumed once it caught up");
        assertTrue(endpoint.events.size() >= 2 && endpoint.events.size() < 100, endpoint.events.toString());
    }

    @Test
    void theIdleTimerFollowsTheConnectionsTimeout() {
        IdleStateHandler ws = PushHandler.idleHandler(new IdlePolicy(Upgrade.WEBSOCKET, 3_000));
        assertEquals(3_000, ws.getReaderIdleTimeInMillis(), "a silent WebSocket is pinged");
        assertEquals(3_000, ws.getWriterIdleTimeInMillis());
        IdleStateHandler sse = PushHandler.idleHandler(new IdlePolicy(Upgrade.SSE, 3_000));
        assertEquals(0, sse.getReaderIdleTimeInMillis(), "SSE clients never send");
        assertEquals(3_000, sse.getWriterIdleTimeInMillis());
    }
}
