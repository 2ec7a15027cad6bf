package org.nettyrack.netty.response;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import org.nettyrack.core.PlainAnswers;
import org.nettyrack.netty.pipeline.Wire;

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
    public static ByteBuf encoded(HttpResponseStatus status) {
        String text = PlainAnswers.text(status.code());
        return ByteBufUtil.writeAscii(io.netty.buffer.UnpooledByteBufAllocator.DEFAULT, "HTTP/1.1 " + text.strip()
            + "\r\ncontent-type: " + PlainAnswers.CONTENT_TYPE + "\r\ncontent-length: " + text.length()
            + "\r\nconnection: close\r\n" + DateHeader.INSTANCE.line() + "\r\n" + text);
    }

    /**
     * Answers and closes, as the channel's protocol closes after an answer ({@link
     * Wire#closeAfterAnswer}): for requests the server will not read any further.
     */
    public static void sendAndClose(ChannelHandlerContext ctx, Wire wire, HttpResponseStatus status, boolean head) {
        wire.closeAfterAnswer(ctx.writeAndFlush(plain(status, true, head)));
    }
}
