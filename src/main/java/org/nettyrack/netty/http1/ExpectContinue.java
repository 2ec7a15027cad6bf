package org.nettyrack.netty.http1;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpServerExpectContinueHandler;
import io.netty.handler.codec.http.HttpUtil;

/**
 * Netty's {@code Expect: 100-continue} handler, except that a request announcing a body over
 * the size limit gets no 100 Continue: it passes straight on, the body collector refuses it
 * (413) and the connection closes, so the client never uploads for nothing. It keeps no state: one instance may serve
 * many pipelines (an HTTP/2 connection's streams share one).
 */
@ChannelHandler.Sharable
public final class ExpectContinue extends HttpServerExpectContinueHandler {
    private final long maxBodySize;

    public ExpectContinue(long maxBodySize) {
        this.maxBodySize = maxBodySize;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (msg instanceof HttpRequest && HttpUtil.getContentLength((HttpRequest) msg, -1L) > maxBodySize) {
            ctx.fireChannelRead(msg);
            return;
        }
        super.channelRead(ctx, msg);
    }
}
