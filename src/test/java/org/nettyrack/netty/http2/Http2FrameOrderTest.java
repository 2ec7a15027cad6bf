package org.nettyrack.netty.http2;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Exception;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The frame headers {@link Http2FrameOrder} reads, sent as raw bytes; payloads are filler it never looks at. */
class Http2FrameOrderTest {
    private static final byte[] PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final int DATA = 0;
    private static final int HEADERS = 1;
    private static final int END_STREAM = 1;
    private static final int END_HEADERS = 4;

    /** What passed the handler: the bytes, and the error it raised, if any. */
    private static final class Next extends ChannelInboundHandlerAdapter {
        final ByteArrayOutputStream passed = new ByteArrayOutputStream();
        Throwable error;

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf buf = (ByteBuf) msg;
            passed.writeBytes(ByteBufUtil.getBytes(buf));
            buf.release();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            error = cause;
        }
    }

    private final Next next = new Next();

    private static byte[] frame(int type, int flags, int stream, int length) {
        byte[] f = new byte[9 + length];
        f[0] = (byte) (length >>> 16);
        f[1] = (byte) (length >>> 8);
        f[2] = (byte) length;
        f[3] = (byte) type;
        f[4] = (byte) flags;
        f[5] = (byte) (stream >>> 24);
        f[6] = (byte) (stream >>> 16);
        f[7] = (byte) (stream >>> 8);
        f[8] = (byte) stream;
        for (int i = 9; i < f.length; i++) {
            f[i] = 1; // looks like a frame header of type 1 to a reader that lost count
        }
        return f;
    }

    private static byte[] join(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }

    private EmbeddedChannel channel(Http2FrameOrder order) {
        return new EmbeddedChannel(order, next);
    }

    private void assertConnectionError(Http2Error code, String message) {
        Http2Exception error = (Http2Exception) next.error;
        assertEquals(code, error.error());
        assertEquals(message, error.getMessage());
    }

    @Test
    void aWellBehavedClientsFramesPassUntouchedTrailersIncluded() {
        EmbeddedChannel ch = channel(new Http2FrameOrder());
        byte[] all = join(PREFACE, frame(4, 0, 0, 6), frame(HEADERS, END_HEADERS, 1, 20), frame(DATA, 0, 1, 100),
            frame(HEADERS, END_HEADERS | END_STREAM, 1, 5), frame(HEADERS, END_HEADERS | END_STREAM, 3, 20),
            frame(8, 0, 1, 4), frame(3, 0, 3, 4), frame(2, 0, 1, 5));
        ch.writeInbound(Unpooled.wrappedBuffer(all));
        assertArrayEquals(all, next.passed.toByteArray());
        assertNull(next.error);
    }

    @Test
    void headersOnAStreamTheClientEndedEndTheConnectionWithStreamClosed() {
        EmbeddedChannel ch = channel(new Http2FrameOrder());
        byte[] good = join(PREFACE, frame(4, 0, 0, 0), frame(HEADERS, END_HEADERS | END_STREAM, 1, 15));
        ch.writeInbound(Unpooled.wrappedBuffer(join(good, frame(HEADERS, END_HEADERS | END_STREAM, 1, 4), frame(4, 0, 0, 0))));
        assertArrayEquals(good, next.passed.toByteArray(), "the frames before the bad one, not it nor what follows");
        assertConnectionError(Http2Error.STREAM_CLOSED, "HEADERS on stream 1 after the client ended it");
        ch.writeInbound(Unpooled.wrappedBuffer(frame(HEADERS, END_HEADERS, 3, 4)));
        assertArrayEquals(good, next.passed.toByteArray(), "nothing passes after a violation");
        assertFalse(ch.finishAndReleaseAll());
    }

    @Test
    void dataAfterTheClientsEndStreamIsCaughtWhateverTheReadBoundaries() {
        EmbeddedChannel ch = channel(new Http2FrameOrder());
        byte[] bytes = join(PREFACE, frame(HEADERS, END_HEADERS, 1, 15), frame(DATA, END_STREAM, 1, 3), frame(DATA, 0, 1, 4));
        for (byte b : bytes) { // a byte at a time: headers and payloads split across reads
            ch.writeInbound(Unpooled.wrappedBuffer(new byte[] {b}));
        }
        assertConnectionError(Http2Error.STREAM_CLOSED, "DATA on stream 1 after the client ended it");
        // The bad frame's header is known bad at its ninth byte; the eight before it had passed
        // already (the codec holds them as a partial frame, then ends the connection).
        assertEquals(bytes.length - 5, next.passed.size(), "up to the bad header's last byte");
    }

    @Test
    void aStreamOpenedBelowOneAlreadyOpenedIsAProtocolError() {
        EmbeddedChannel ch = channel(new Http2FrameOrder());
        ch.writeInbound(Unpooled.wrappedBuffer(join(PREFACE, frame(HEADERS, END_HEADERS | END_STREAM, 5, 10),
            frame(HEADERS, END_HEADERS | END_STREAM, 3, 10))));
        assertConnectionError(Http2Error.PROTOCOL_ERROR, "HEADERS on stream 3 opening a stream below 5");
    }

    @Test
    void trailersOnAStreamStillOpenAreNotMistakenForAStreamOutOfOrder() {
        EmbeddedChannel ch = channel(new Http2FrameOrder());
        byte[] all = join(PREFACE, frame(HEADERS, END_HEADERS, 1, 10), frame(HEADERS, END_HEADERS | END_STREAM, 7, 10),
            frame(HEADERS, END_HEADERS | END_STREAM, 1, 5));
        ch.writeInbound(Unpooled.wrappedBuffer(all));
        assertNull(next.error);
        ch.writeInbound(Unpooled.wrappedBuffer(frame(HEADERS, END_HEADERS, 5, 10)));
        assertConnectionError(Http2Error.PROTOCOL_ERROR, "HEADERS on stream 5 opening a stream below 7");
    }

    @Test
    void afterAnUpgradeStreamOneIsTheRequestAlreadyComplete() {
        EmbeddedChannel ch = channel(Http2FrameOrder.afterUpgrade());
        ch.writeInbound(Unpooled.wrappedBuffer(join(PREFACE, frame(HEADERS, END_HEADERS | END_STREAM, 3, 10))));
        assertNull(next.error);
        ch.writeInbound(Unpooled.wrappedBuffer(frame(DATA, 0, 1, 10)));
        assertConnectionError(Http2Error.STREAM_CLOSED, "DATA on stream 1 after the client ended it");
    }

    @Test
    void itForgetsTheOldestEndedStreamsBeyondItsBound() {
        EmbeddedChannel ch = channel(new Http2FrameOrder());
        ch.writeInbound(Unpooled.wrappedBuffer(PREFACE));
        for (int i = 0; i <= Http2FrameOrder.REMEMBERED; i++) {
            ch.writeInbound(Unpooled.wrappedBuffer(frame(HEADERS, END_HEADERS | END_STREAM, 1 + 2 * i, 0)));
        }
        ch.writeInbound(Unpooled.wrappedBuffer(frame(DATA, 0, 1, 1))); // forgotten: left to Netty
        assertNull(next.error);
        ch.writeInbound(Unpooled.wrappedBuffer(frame(DATA, 0, 3, 1)));
        assertConnectionError(Http2Error.STREAM_CLOSED, "DATA on stream 3 after the client ended it");
    }
}
