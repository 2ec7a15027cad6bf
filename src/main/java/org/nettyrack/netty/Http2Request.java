package org.nettyrack.netty;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http2.HttpConversionUtil.ExtensionHeaderNames;

/**
 * On each HTTP/2 stream, right after Netty's stream codec: removes from the request head what
 * the conversion to HTTP/1.1 objects added and no client sent ({@code x-http2-stream-id},
 * {@code x-http2-scheme}, {@code x-http2-path}, a {@code transfer-encoding: chunked} for a
 * body of unknown length), so the application sees the client's own header fields, as on
 * HTTP/1.1. {@code :authority} has become {@code host} already.
 */
@ChannelHandler.Sharable
final class Http2Request extends ChannelInboundHandlerAdapter {
    static final Http2Request INSTANCE = new Http2Request();

    private Http2Request() {
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof HttpRequest) {
            HttpHeaders headers = ((HttpRequest) msg).headers();
            for (ExtensionHeaderNames name : ExtensionHeaderNames.values()) {
                headers.remove(name.text());
            }
            headers.remove(HttpHeaderNames.TRANSFER_ENCODING);
        }
        ctx.fireChannelRead(msg);
    }
}
