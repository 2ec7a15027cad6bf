package org.nettyrack.netty.push;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBufHolder;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.channel.socket.DuplexChannel;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.PingWebSocketFrame;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.nettyrack.core.ErrorLog;
import org.nettyrack.core.push.PushClose;
import org.nettyrack.core.push.PushSession;
import org.nettyrack.core.push.RecordingEndpoint;
import org.nettyrack.netty.CloseFrames;

/**
 * NettyPushConnection on an EmbeddedChannel: what reaches the wire, in which order, and
 * how the queue limit and close behave. {@link HeldFlush} plays a socket that is not
 * being read, so writes stay queued until the test lets them go.
 */
class PushConnectionTest {
    private final AtomicInteger slowClosed = new AtomicInteger();
    private final SocketLike channel = new SocketLike();
    private final HeldFlush socket = new HeldFlush();
    private final RecordingEndpoint endpoint = new RecordingEndpoint();

    /** An EmbeddedChannel that, like a socket, can end its output half and go on reading. */
    private static final class SocketLike extends EmbeddedChannel implements DuplexChannel {
        private boolean outputShutdown;

        @Override
        public boolean isInputShutdown() {
            return false;
        }

        @Override
        public ChannelFuture shutdownInput() {
            return shutdownInput(newPromise());
        }

        @Override
        public ChannelFuture shutdownInput(ChannelPromise promise) {
            return promise.setFailure(new UnsupportedOperationException("not used by the server"));
        }

        @Override
        public boolean isOutputShutdown() {
            return outputShutdown;
        }

        @Override
        public ChannelFuture shutdownOutput() {
            return shutdownOutput(newPromise());
        }

        @Override
        public ChannelFuture shutdownOutput(ChannelPromise promise) {
            outputShutdown = true;
            return promise.setSuccess();
        }

        @Override
        public boolean isShutdown() {
            return outputShutdown;
        }

        @Override
        public ChannelFuture shutdown() {
            return shutdown(newPromise());
        }

        @Override
        public ChannelFuture shutdown(ChannelPromise promise) {
            return shutdownInput(promise);
        }
    }

    /** Swallows flushes while holding, so written messages wait in the outbound buffer. */
    private static final class HeldFlush extends ChannelOutboundHandlerAdapter {
        private boolean holding;
        private ChannelHandlerContext ctx;

        @Override
        public void handlerAdded(ChannelHandlerContext ctx) {
            this.ctx = ctx;
        }

        @Override
        public void flush(ChannelHandlerContext ctx) {
            if (!holding) {
                ctx.flush();
            }
        }

        void hold() {
            holding = true;
        }

        void release() {
            holding = false;
            ctx.flush();
        }
    }

    private NettyPushConnection connection(PushFraming framing, long maxQueue) {
        channel.pipeline().addLast(socket);
        NettyPushConnection c = new NettyPushConnection(channel, framing, maxQueue, 40_000, new org.nettyrack.core.push.PushTally() {
            @Override
            public void sent(org.nettyrack.core.Upgrade kind) {
            }

            @Override
            public void dropped(org.nettyrack.core.Upgrade kind) {
            }

            @Override
            public void closedSlow(org.nettyrack.core.Upgrade kind) {
                slowClosed.incrementAndGet();
            }
        });
        c.attach(new PushSession(task -> {
            task.run();
            return true;
        }, endpoint, c, () -> { }, ErrorLog.stderr()), () -> { });
        return c;
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String content(Object msg) {
        String s = ((ByteBufHolder) msg).content().toString(StandardCharsets.UTF_8);
        ReferenceCountUtil.release(msg);
        return s;
    }

    private int closeCode() {
        return CloseFrames.nextCode(channel);
    }

    @Test
    void sendsFramesInOrderWithTheTextFlag() {
        NettyPushConnection c = connection(PushFraming.WEBSOCKET, 1024);
        assertTrue(c.send(utf8("a"), true));
        assertTrue(c.send(utf8("b"), false));
        assertEquals("a", content(assertInstanceOf(TextWebSocketFrame.class, channel.readOutbound())));
        assertEquals("b", content(assertInstanceOf(BinaryWebSocketFrame.class, channel.readOutbound())));
        assertNull(channel.readOutbound());
        assertEquals(0, c.pending(), "both on the wire");
        assertEquals(0, c.queuedBytes());
    }

    @Test
    void pendingCountsWritesNotYetOnTheSocket() {
        NettyPushConnection c = connection(PushFraming.WEBSOCKET, 1024);
        socket.hold();
        for (int i = 0; i < 3; i++) {
            assertTrue(c.send(utf8("abcd"), true));
        }
        assertEquals(3, c.pending());
        assertEquals(12, c.queuedBytes());
        assertNull(channel.readOutbound(), "nothing written yet");
        socket.release();
        assertEquals(0, c.pending());
        assertEquals(0, c.queuedBytes());
        for (int i = 0; i < 3; i++) {
            assertEquals("abcd", content(channel.readOutbound()));
        }
    }

    @Test
    void aWriteOverTheQueueLimitIsRefusedAndClosesWith1008() {
        NettyPushConnection c = connection(PushFraming.WEBSOCKET, 10);
        socket.hold();
        assertTrue(c.send(utf8("123456"), true));
        assertFalse(c.send(utf8("789012"), true), "12 bytes queued would pass the limit of 10");
        assertFalse(c.isOpen());
        assertEquals(-1, c.pending());
        assertFalse(c.send(utf8("x"), true), "closed: refused");
        assertEquals(1, slowClosed.get(), "counted once as a slow consumer");
        socket.release();

        assertEquals("123456", content(assertInstanceOf(TextWebSocketFrame.class, channel.readOutbound())),
            "what was queued before still goes out");
        assertEquals(PushClose.POLICY, closeCode());
        assertNull(channel.readOutbound(), "no data after the close frame");
        assertTrue(channel.isOpen(), "waiting for the client's close frame");

        channel.advanceTimeBy(c.closeWaitMillis(), TimeUnit.MILLISECONDS);
        channel.runScheduledPendingTasks();
        assertFalse(channel.isOpen(), "dropped once the close wait is over");
    }

    @Test
    void closeWritesTheCloseFrameAfterQueuedDataAndNothingAfterIt() {
        NettyPushConnection c = connection(PushFraming.WEBSOCKET, 1024);
        socket.hold();
        assertTrue(c.send(utf8("a"), true));
        c.close();
        c.close();
        assertFalse(c.send(utf8("b"), true));
        assertFalse(c.isOpen());
        socket.release();
        assertEquals("a", content(channel.readOutbound()));
        assertEquals(PushClose.NORMAL, closeCode());
        assertNull(channel.readOutbound(), "one close frame, and no data after it");
    }

    @Test
    void thePeersCloseIsAnsweredWithItsCode() {
        NettyPushConnection c = connection(PushFraming.WEBSOCKET, 1024);
        c.peerClosed(4001);
        assertEquals(4001, closeCode());
        assertFalse(c.isOpen());
        assertFalse(channel.isOpen(), "closed once the answer is written");
    }

    @Test
    void thePeersCloseAfterOursClosesWithoutASecondFrame() {
        NettyPushConnection c = connection(PushFraming.WEBSOCKET, 1024);
        c.close();
        assertEquals(PushClose.NORMAL, closeCode());
        c.peerClosed(1000);
        channel.runPendingTasks();
        assertNull(channel.readOutbound());
        assertFalse(channel.isOpen());
    }

    @Test
    void reportsDrainedOnceABackedUpQueueEmpties() {
        NettyPushConnection c = connection(PushFraming.WEBSOCKET, 1024 * 1024);
        channel.config().setWriteBufferWaterMark(new WriteBufferWaterMark(8, 16));
        socket.hold();
        assertTrue(c.send(utf8("first fills the buffer"), true));
        assertFalse(channel.isWritable());
        assertTrue(c.send(utf8("second finds it full"), true));
        assertTrue(endpoint.events.isEmpty());
        socket.release();
        assertEquals(List.of("drained"), endpoint.events);

        assertTrue(c.send(utf8("no backlog"), true));
        assertEquals(List.of("drained"), endpoint.events, "no on_drained without a backlog");
    }

    @Test
    void keepAlivesAreNotSentOnceClosing() {
        NettyPushConnection c = connection(PushFraming.WEBSOCKET, 1024);
        c.keepAlive();
        assertInstanceOf(PingWebSocketFrame.class, channel.readOutbound());
        c.close();
        closeCode();
        c.keepAlive();
        assertNull(channel.readOutbound());
    }

    @Test
    void failingSendsTheCloseFrameThenEndsOurHalfAndReadsOn() {
        NettyPushConnection c = connection(PushFraming.WEBSOCKET, 1024);
        assertTrue(c.send(utf8("queued"), true));
        c.fail(PushClose.MESSAGE_TOO_BIG);
        assertFalse(c.isOpen());
        assertFalse(c.send(utf8("late"), true));

        assertEquals("queued", content(channel.readOutbound()));
        assertEquals(PushClose.TOO_BIG, closeCode());
        assertTrue(channel.isOutputShutdown(), "our half ended after the close frame");
        assertTrue(channel.isOpen(), "still reading: a close now would reset a client that is still sending");

        channel.advanceTimeBy(c.closeWaitMillis(), TimeUnit.MILLISECONDS);
        channel.runScheduledPendingTasks();
        assertFalse(channel.isOpen(), "dropped once the close wait is over");
    }

    @Test
    void anOrdinaryCloseKeepsOurHalfOpenForTheClosingHandshake() {
        NettyPushConnection c = connection(PushFraming.WEBSOCKET, 1024);
        c.close();
        assertEquals(PushClose.NORMAL, closeCode());
        assertFalse(channel.isOutputShutdown());
    }

    @Test
    void sseStreamsSendChunksAndEndWithTheLastChunk() {
        NettyPushConnection c = connection(PushFraming.SSE, 1024);
        assertTrue(c.send(utf8("data: x\n\n"), true));
        c.keepAlive();
        c.close();
        channel.runPendingTasks();
        Object event = channel.readOutbound();
        assertFalse(event instanceof LastHttpContent);
        assertEquals("data: x\n\n", content(assertInstanceOf(HttpContent.class, event)));
        assertEquals(":\n\n", content(channel.readOutbound()));
        assertInstanceOf(LastHttpContent.class, channel.readOutbound());
        assertFalse(channel.isOpen(), "an event stream just ends");
    }

    @Test
    void timeoutsBelowATenthOfASecondAreRefused() {
        AtomicInteger changed = new AtomicInteger();
        NettyPushConnection c = new NettyPushConnection(channel, PushFraming.WEBSOCKET, 1024, 40_000);
        c.attach(null, changed::incrementAndGet);
        assertThrows(IllegalArgumentException.class, () -> c.timeoutMillis(99));
        assertEquals(40_000, c.timeoutMillis());
        c.timeoutMillis(2_500);
        channel.runPendingTasks();
        assertEquals(2_500, c.timeoutMillis());
        assertEquals(1, changed.get(), "the idle timer is replaced on the event loop");
        assertEquals(2_500, c.closeWaitMillis(), "the close wait follows a short timeout");
    }
}
