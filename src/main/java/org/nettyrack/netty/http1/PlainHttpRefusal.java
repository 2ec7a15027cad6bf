package org.nettyrack.netty.http1;

import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;
import org.nettyrack.netty.response.DateHeader;

/**
 * Answers a connection that sent cleartext to a TLS port ({@code TlsSniffer} put it there):
 * one short {@code HTTP/1.1 400} in cleartext, which a browser or curl shows, then close. The
 * bytes received are dropped unread.
 */
public final class PlainHttpRefusal extends ChannelInboundHandlerAdapter {
    public static final String BODY = "400 Bad Request: this port speaks HTTPS; use https://\n";
    private boolean answered;

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ReferenceCountUtil.release(msg);
        if (answered) {
            return;
        }
        answered = true;
        String response = "HTTP/1.1 400 Bad Request\r\ncontent-type: text/plain\r\ncontent-length: " + BODY.length()
            + "\r\nconnection: close\r\n" + DateHeader.INSTANCE.line() + "\r\n" + BODY;
        ctx.writeAndFlush(ByteBufUtil.writeAscii(ctx.alloc(), response)).addListener(ChannelFutureListener.CLOSE);
    }
}
