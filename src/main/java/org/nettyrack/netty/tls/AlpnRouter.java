package org.nettyrack.netty.tls;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.ssl.ApplicationProtocolNames;
import io.netty.handler.ssl.ApplicationProtocolNegotiationHandler;
import java.util.function.Consumer;

/**
 * Behind the {@code SslHandler} of a TLS connection: once the handshake has agreed on an
 * application protocol (ALPN), installs the handlers that speak it, then leaves. Bytes that
 * arrive meanwhile wait here (Netty's {@link ApplicationProtocolNegotiationHandler}). A client
 * that does not use ALPN gets HTTP/1.1. A handshake that fails closes the connection.
 *
 * <p>ALPN offers {@code h2} first ({@code TlsSettings.OFFERED}), whatever {@code --http2}
 * says: that option is about cleartext ports, and browsers speak HTTP/2 only over TLS. A
 * listener's {@code alpn} param narrows the offer ({@code TlsSettings.alpn}),
 * {@code alpn=http/1.1} to HTTP/1.1 alone.
 */
public final class AlpnRouter extends ApplicationProtocolNegotiationHandler {
    private final Consumer<ChannelPipeline> http1;
    private final Consumer<ChannelPipeline> http2;

    /** http1, http2: add the handlers of that protocol at the end of the pipeline. */
    public AlpnRouter(Consumer<ChannelPipeline> http1, Consumer<ChannelPipeline> http2) {
        super(ApplicationProtocolNames.HTTP_1_1);
        this.http1 = http1;
        this.http2 = http2;
    }

    @Override
    protected void configurePipeline(ChannelHandlerContext ctx, String protocol) {
        if (ApplicationProtocolNames.HTTP_2.equals(protocol)) {
            http2.accept(ctx.pipeline());
        } else if (ApplicationProtocolNames.HTTP_1_1.equals(protocol)) {
            http1.accept(ctx.pipeline());
        } else {
            throw new IllegalStateException("ALPN agreed on a protocol never offered: " + protocol);
        }
    }

    @Override
    protected void handshakeFailure(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close(); // an old protocol, no shared cipher, no client certificate: nothing to answer
    }
}
