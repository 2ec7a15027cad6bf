package org.nettyrack.netty.http1;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http2.DefaultHttp2ResetFrame;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Stream;
import io.netty.handler.codec.http2.Http2StreamChannel;
import org.nettyrack.core.PlainAnswers;

/**
 * The core's {@link PlainAnswers} (400, 408, 413, 414, 431, 501, 503, 505) as Netty responses: the status
 * line's reason phrase and the {@code text/plain} body both come from there.
 */
public final class ErrorResponses {
    private ErrorResponses() {
    }

    /** The answer; for a HEAD request the same head without the body. */
    public static FullHttpResponse plain(HttpResponseStatus status, boolean close, boolean head) {
        int code = status.code();
        byte[] text = PlainAnswers.body(code);
        ByteBuf body = head ? Unpooled.EMPTY_BUFFER : Unpooled.wrappedBuffer(text);
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
            HttpResponseStatus.valueOf(code, PlainAnswers.reason(code)), body);
        response.headers()
            .set(HttpHeaderNames.CONTENT_TYPE, PlainAnswers.CONTENT_TYPE)
            .setInt(HttpHeaderNames.CONTENT_LENGTH, text.length);
        if (close) {
            response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        }
        return response;
    }

    /**
     * The same answer as bytes, with {@code connection: close}: for a connection whose pipeline
     * has no HTTP encoder (not yet, or any more).
     */
    static ByteBuf encoded(HttpResponseStatus status) {
        String text = PlainAnswers.text(status.code());
        return ByteBufUtil.writeAscii(io.netty.buffer.UnpooledByteBufAllocator.DEFAULT, "HTTP/1.1 " + text.strip()
            + "\r\ncontent-type: " + PlainAnswers.CONTENT_TYPE + "\r\ncontent-length: " + text.length()
            + "\r\nconnection: close\r\n" + DateHeader.INSTANCE.line() + "\r\n" + text);
    }

    /** Answers and closes: for requests the server will not read any further. */
    public static void sendAndClose(ChannelHandlerContext ctx, HttpResponseStatus status, boolean head) {
        ctx.writeAndFlush(plain(status, true, head)).addListener(CLOSE);
    }

    /**
     * Closes once the answer left. An HTTP/2 stream whose request is still arriving is first
     * reset with NO_ERROR: "the server MAY request that the client abort transmission of a
     * request without error by sending a RST_STREAM with an error code of NO_ERROR after
     * sending a complete response" (RFC 9113 8.1); closing alone resets it with CANCEL, and
     * clients (curl, httpx) then drop the answer they were given.
     */
    private static final ChannelFutureListener CLOSE = written -> {
        if (written.isSuccess() && written.channel() instanceof Http2StreamChannel) {
            Http2StreamChannel stream = (Http2StreamChannel) written.channel();
            if (stream.stream().state() == Http2Stream.State.HALF_CLOSED_LOCAL) {
                stream.writeAndFlush(new DefaultHttp2ResetFrame(Http2Error.NO_ERROR));
            }
        }
        written.channel().close();
    };
}
