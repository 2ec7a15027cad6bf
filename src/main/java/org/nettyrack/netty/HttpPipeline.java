package org.nettyrack.netty;

import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.haproxy.HAProxyMessageDecoder;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpResponseEncoder;
import org.nettyrack.core.ServerConfig;

/**
 * Builds each connection's pipeline, socket side first:
 * <pre>
 * tcp:// timeouts → [PROXY decoder → proxy] → decoder → encoder → guard → expect-continue → dispatcher
 * ssl:// [PROXY decoder → proxy] → TLS → timeouts → ALPN, then decoder → ... → dispatcher
 * </pre>
 * With {@code --proxy-protocol}, Netty's PROXY protocol decoder and {@link ProxyProtocolHandler}
 * read the load balancer's header first, then leave the pipeline. On a TLS listener
 * ({@link TlsListener}) the {@link TlsSniffer} becomes the {@code SslHandler} (or a cleartext
 * 400), ahead of the timeouts so that their 408 is encrypted, and {@link AlpnRouter} adds the
 * HTTP/1.1 handlers once the handshake is done.
 * Netty's codec parses and frames; {@link RequestGuard} refuses what must not reach the
 * application; Netty's expect-continue handler answers {@code Expect: 100-continue};
 * {@link RackDispatcher} collects bodies and runs the application on the worker pool.
 * The handler names are spelled here only; a connection that switches to push keeps the codec
 * and drops the rest ({@link #leaveHttp}).
 */
final class HttpPipeline extends ChannelInitializer<SocketChannel> {
    static final String TIMEOUTS = "timeouts";
    static final String PROXY_DECODER = "proxy-decoder";
    static final String PROXY = "proxy";
    static final String TLS = "tls";
    static final String ALPN = "alpn";
    static final String DECODER = "decoder";
    static final String ENCODER = "encoder";
    static final String GUARD = "guard";
    static final String CONTINUE = "continue";
    static final String DISPATCHER = "dispatcher";
    /** What only an HTTP conversation needs: removed when the connection switches to push. */
    private static final String[] HTTP_ONLY = {TIMEOUTS, GUARD, CONTINUE, DISPATCHER};

    private final ServerState server;
    private final TlsListener tls;
    private final HttpDecoderConfig decoderConfig;

    HttpPipeline(ServerState server) {
        this(server, null);
    }

    /** tls: the listener's TLS state, or null for cleartext. */
    HttpPipeline(ServerState server, TlsListener tls) {
        this.server = server;
        this.tls = tls;
        ServerConfig config = server.config;
        this.decoderConfig = new HttpDecoderConfig()
            .setMaxInitialLineLength(config.maxUriLength())
            .setMaxHeaderSize(config.maxHeaderSize())
            .setMaxChunkSize(64 * 1024)
            .setAllowDuplicateContentLengths(false)
            .setHeadersFactory(RequestHeaders.FACTORY);
    }

    @Override
    protected void initChannel(SocketChannel ch) {
        server.connections.accepted(ch);
        server.channels.add(ch);
        configure(ch.pipeline());
    }

    void configure(ChannelPipeline p) {
        ServerConfig config = server.config;
        if (tls != null) {
            addProxy(p);
            p.addLast(TLS, new TlsSniffer(tls.context(), config.headerTimeoutMillis()));
            p.addLast(TIMEOUTS, timeouts());
            p.addLast(ALPN, new AlpnRouter(this));
            return;
        }
        p.addLast(TIMEOUTS, timeouts());
        addProxy(p);
        addHttp1(p);
    }

    private RequestTimeouts timeouts() {
        return new RequestTimeouts(server.config.headerTimeoutMillis(), server.config.keepAliveTimeoutMillis());
    }

    private void addProxy(ChannelPipeline p) {
        if (server.config.proxyProtocol()) {
            p.addLast(PROXY_DECODER, new HAProxyMessageDecoder());
            p.addLast(PROXY, new ProxyProtocolHandler(server.errorLog));
        }
    }

    /** The HTTP/1.1 handlers, from the decoder on, at the end of the pipeline. */
    void addHttp1(ChannelPipeline p) {
        ServerConfig config = server.config;
        p.addLast(DECODER, new StrictRequestDecoder(decoderConfig.clone(), config.maxChunkExtensions()));
        p.addLast(ENCODER, new HttpResponseEncoder());
        p.addLast(GUARD, new RequestGuard(config.maxHeaders()));
        p.addLast(CONTINUE, new ExpectContinue(config.maxBodySize()));
        p.addLast(DISPATCHER, new RackDispatcher(server));
    }

    /**
     * Removes the handlers only HTTP needs (timeouts, guard, expect-continue, dispatcher),
     * leaving the codec for the push conversation: an SSE stream keeps it, a WebSocket
     * handshake replaces it.
     */
    static void leaveHttp(ChannelPipeline p) {
        for (String name : HTTP_ONLY) {
            if (p.get(name) != null) {
                p.remove(name);
            }
        }
    }
}
