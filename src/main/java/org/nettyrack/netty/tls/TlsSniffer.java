package org.nettyrack.netty.tls;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.ssl.OptionalSslHandler;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import org.nettyrack.netty.http1.PlainHttpRefusal;
import org.nettyrack.netty.pipeline.PipelineNames;

/**
 * The first TLS handler of an {@code ssl://} connection: Netty's {@link OptionalSslHandler}
 * reads the first bytes and puts an {@link SslHandler} in its place when they open a TLS
 * record, or a {@link PlainHttpRefusal} when they do not (plain HTTP sent to the TLS port gets
 * a cleartext 400 instead of a handshake that never completes). The handshake must finish
 * within the header timeout, counted from accept.
 */
public final class TlsSniffer extends OptionalSslHandler {
    private final long handshakeTimeoutMillis;

    public TlsSniffer(SslContext context, long handshakeTimeoutMillis) {
        super(context);
        this.handshakeTimeoutMillis = handshakeTimeoutMillis;
    }

    @Override
    protected String newSslHandlerName() {
        return PipelineNames.SSL;
    }

    @Override
    protected SslHandler newSslHandler(ChannelHandlerContext ctx, SslContext context) {
        SslHandler handler = context.newHandler(ctx.alloc());
        handler.setHandshakeTimeoutMillis(handshakeTimeoutMillis);
        return handler;
    }

    @Override
    protected ChannelHandler newNonSslHandler(ChannelHandlerContext ctx) {
        return new PlainHttpRefusal();
    }
}
