package org.nettyrack.netty.http2;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.handler.codec.http2.DefaultHttp2DataFrame;
import io.netty.handler.codec.http2.Http2DataFrame;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.handler.codec.http2.Http2StreamFrame;
import io.netty.util.ReferenceCountUtil;

/**
 * An HTTP/2 stream as a byte stream, once its request was answered with a 2xx to an extended
 * CONNECT (RFC 8441): it takes the place of the stream's HTTP codec, so what follows (a
 * WebSocket frame codec, or the pump of a {@code rack.protocol} stream) reads and writes
 * {@link ByteBuf}s as on an HTTP/1.1 connection. DATA frames in become their bytes (Netty's
 * stream channel returns the flow-control credit as they are read, so a reader that stops
 * reading stops the client); the client's END_STREAM becomes a {@link ChannelInputShutdownEvent},
 * as a TCP half-close would. Bytes out become DATA frames, which the stream's window paces (the
 * channel is not writable while it is shut); closing sends END_STREAM first, so a stream that
 * ends in order is not reset.
 */
final class Http2StreamBytes extends ChannelDuplexHandler {
    private boolean inputEnded;
    private boolean outputEnded;

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof Http2StreamFrame)) {
            ctx.fireChannelRead(msg);
            return;
        }
        boolean endStream = false;
        if (msg instanceof Http2DataFrame data) {
            endStream = data.isEndStream();
            if (data.content().isReadable()) {
                ctx.fireChannelRead(data.content().retain());
            }
        } else if (msg instanceof Http2HeadersFrame trailers) {
            endStream = trailers.isEndStream(); // trailers carry nothing a byte stream has a use for
        }
        ReferenceCountUtil.release(msg);
        if (endStream && !inputEnded) {
            inputEnded = true;
            ctx.fireUserEventTriggered(ChannelInputShutdownEvent.INSTANCE);
        }
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (!(msg instanceof ByteBuf bytes)) {
            ctx.write(msg, promise);
        } else if (!bytes.isReadable() || outputEnded) {
            bytes.release();
            promise.setSuccess();
        } else {
            ctx.write(new DefaultHttp2DataFrame(bytes, false), promise);
        }
    }

    @Override
    public void close(ChannelHandlerContext ctx, ChannelPromise promise) {
        if (!outputEnded && ctx.channel().isActive()) {
            outputEnded = true;
            ctx.writeAndFlush(new DefaultHttp2DataFrame(true));
        }
        ctx.close(promise);
    }
}
