package org.nettyrack.netty.http2;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.util.ReferenceCountUtil;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.LinkedHashSet;

/**
 * Just before the HTTP/2 frame codec: reads the 9-byte header of every frame the client sends
 * (never a payload) to catch the two stream-state errors Netty's codec cannot tell apart, because
 * it forgets a stream once it is closed (netty#12985):
 * <ul>
 * <li>HEADERS or DATA on a stream the client itself already ended with END_STREAM
 * (half-closed (remote) or closed, RFC 9113 5.1): Netty answers with another stream error or
 * with RST_STREAM, the RFC says STREAM_CLOSED. A client that ended a stream knows it did, so
 * nothing in flight can excuse it; the connection ends with GOAWAY {@code STREAM_CLOSED} (a stream
 * error may be treated as a connection error, RFC 9113 5.4.1). Streams only the server reset are
 * not counted: frames the client sent before it saw the reset are ignored, as the RFC asks.</li>
 * <li>HEADERS that open a stream with an id lower than one the client already opened (RFC 9113
 * 5.1.1): GOAWAY {@code PROTOCOL_ERROR}. The ids a client jumped over are kept as ranges, so
 * trailers on a stream still open are told apart from a new stream out of order.</li>
 * </ul>
 * The frames before the bad one are passed on, so GOAWAY names the last stream served; the bad
 * one and all that follow are dropped. What it remembers is bounded ({@link #REMEMBERED} ended
 * streams, {@link #RANGES} gaps); beyond that it forgets the oldest and leaves them to Netty.
 */
final class Http2FrameOrder extends ChannelInboundHandlerAdapter {
    static final int REMEMBERED = 1024;
    static final int RANGES = 16;
    private static final int HEADER = Http2CodecUtil.FRAME_HEADER_LENGTH;
    private static final byte DATA = 0x0;
    private static final byte HEADERS = 0x1;
    private static final int END_STREAM = 0x1;

    private final byte[] header = new byte[HEADER];
    private final LinkedHashSet<Integer> ended = new LinkedHashSet<>();
    /** Ids the client skipped over when it opened a stream, as {first, last} pairs, oldest first. */
    private final ArrayDeque<int[]> skipped = new ArrayDeque<>();
    private int prefaceLeft = Http2CodecUtil.connectionPrefaceBuf().readableBytes();
    private int headerFill;
    private long payloadLeft;
    /** The lowest id the client may open a stream with. */
    private int nextOpen = 1;
    /** The first frame out of order, once seen: nothing is read after it. */
    private Violation violation;

    /** For a connection whose stream 1 is the HTTP/1.1 request that asked to upgrade, complete. */
    static Http2FrameOrder afterUpgrade() {
        Http2FrameOrder order = new Http2FrameOrder();
        order.nextOpen = 3;
        order.ended.add(1);
        return order;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (violation != null) {
            ReferenceCountUtil.release(msg);
            return;
        }
        if (!(msg instanceof ByteBuf in)) {
            ctx.fireChannelRead(msg);
            return;
        }
        int bad = scan(in);
        if (bad < 0) {
            ctx.fireChannelRead(in);
            return;
        }
        if (bad > in.readerIndex()) {
            ctx.fireChannelRead(in.retainedSlice(in.readerIndex(), bad - in.readerIndex()));
        }
        in.release();
        ctx.fireExceptionCaught(Http2Exception.connectionError(violation.code(), "%s", violation.reason()));
    }

    /** The index in buf where a bad frame's header starts, or -1 when all is well. */
    private int scan(ByteBuf buf) {
        int i = buf.readerIndex();
        int end = buf.writerIndex();
        while (i < end) {
            if (prefaceLeft > 0) {
                int n = Math.min(prefaceLeft, end - i);
                prefaceLeft -= n;
                i += n;
            } else if (payloadLeft > 0) {
                int n = (int) Math.min(payloadLeft, end - i);
                payloadLeft -= n;
                i += n;
            } else {
                int start = i - headerFill;
                int n = Math.min(HEADER - headerFill, end - i);
                buf.getBytes(i, header, headerFill, n);
                headerFill += n;
                i += n;
                if (headerFill == HEADER) {
                    headerFill = 0;
                    payloadLeft = ((header[0] & 0xff) << 16) | ((header[1] & 0xff) << 8) | (header[2] & 0xff);
                    violation = check(header[3], header[4], streamId());
                    if (violation != null) {
                        return Math.max(start, buf.readerIndex());
                    }
                }
            }
        }
        return -1;
    }

    private int streamId() {
        return ((header[5] & 0x7f) << 24) | ((header[6] & 0xff) << 16) | ((header[7] & 0xff) << 8) | (header[8] & 0xff);
    }

    /** The violation a frame with this header commits, or null when it may pass. */
    private Violation check(byte type, byte flags, int id) {
        if ((type != HEADERS && type != DATA) || id == 0 || (id & 1) == 0) {
            return null; // control frames, and ids the client may not use at all: Netty's business
        }
        if (ended.contains(id)) {
            return new Violation(Http2Error.STREAM_CLOSED, (type == HEADERS ? "HEADERS" : "DATA") + " on stream " + id
                + " after the client ended it");
        }
        if (type == HEADERS) {
            if (id >= nextOpen) {
                opened(id);
            } else if (wasSkipped(id)) {
                return new Violation(Http2Error.PROTOCOL_ERROR, "HEADERS on stream " + id + " opening a stream below "
                    + (nextOpen - 2));
            }
        }
        if ((flags & END_STREAM) != 0) {
            remember(id);
        }
        return null;
    }

    /** A connection error to answer with GOAWAY: its code and what the client did. */
    private record Violation(Http2Error code, String reason) {
    }

    private void opened(int id) {
        if (id > nextOpen) {
            if (skipped.size() == RANGES) {
                skipped.removeFirst();
            }
            skipped.addLast(new int[] {nextOpen, id - 2});
        }
        nextOpen = id + 2;
    }

    private boolean wasSkipped(int id) {
        for (int[] range : skipped) {
            if (id >= range[0] && id <= range[1]) {
                return true;
            }
        }
        return false;
    }

    private void remember(int id) {
        if (ended.size() == REMEMBERED) {
            Iterator<Integer> oldest = ended.iterator();
            oldest.next();
            oldest.remove();
        }
        ended.add(id);
    }
}
