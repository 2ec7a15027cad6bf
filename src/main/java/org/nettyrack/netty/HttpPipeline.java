package org.nettyrack.netty;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.haproxy.HAProxyMessageDecoder;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpResponseEncoder;
import org.nettyrack.core.ServerConfig;
import org.nettyrack.netty.tls.TlsListener;
import org.nettyrack.netty.http1.DateHeader;

/**
 * Builds each connection's pipeline (TCP or unix socket alike), socket side first:
 * <pre>
 * tcp://  timeouts → [PROXY decoder → proxy] → [h2 preface] → decoder → encoder → date → guard
 *         → [h2c upgrade] → expect-continue → dispatcher
 * ssl://  [PROXY decoder → proxy] → TLS → timeouts → ALPN, then h2 ({@link Http2Support#configure})
 *         or decoder → encoder → date → guard → expect-continue → dispatcher
 * </pre>
 * With {@code --proxy-protocol}, Netty's PROXY protocol decoder and {@link ProxyProtocolHandler}
 * read the load balancer's header first, then leave the pipeline. On a TLS listener
 * ({@link TlsListener}) the {@link TlsSniffer} becomes the {@code SslHandler} (or a cleartext
 * 400), ahead of the timeouts so that their 408 is encrypted, and {@link AlpnRouter} adds the
 * HTTP/1.1 handlers once the handshake is done.
 * Netty's codec parses and frames; {@link DateHeader} dates the responses; {@link RequestGuard}
 * refuses what must not reach the application; Netty's expect-continue handler answers
 * {@code Expect: 100-continue}; {@link RackDispatcher} collects bodies and runs the application on the worker pool.
 * With h2c on ({@code --http2}), {@link Http2Preface} and Netty's upgrade handler
 * ({@link Http2Support#upgradeHandler}) switch a connection that asks to HTTP/2.
 * {@link FileBodies} adds Netty's chunked writer behind the encoder the first time it sends a
 * file over TLS or HTTP/2. The names of the HTTP handlers, HTTP/1.1's and HTTP/2's (the
 * connection's and each stream's), are spelled here only; a connection that switches
 * to push keeps the codec and drops the rest ({@link #leaveHttp}); a hijacked one drops all of
 * them ({@link #leaveForHijack}).
 */
final class HttpPipeline extends ChannelInitializer<Channel> {
    static final String TIMEOUTS = "timeouts";
    static final String PROXY_DECODER = "proxy-decoder";
    static final String PROXY = "proxy";
    static final String PREFACE = "h2-preface";
    static final String TLS = "tls";
    static final String ALPN = "alpn";
    static final String DECODER = "decoder";
    static final String ENCODER = "encoder";
    /** {@link DateHeader}, on the application's side of the HTTP/1.1 encoder and of each stream's codec. */
    static final String DATE = "date";
    static final String GUARD = "guard";
    static final String H2C_UPGRADE = "h2c-upgrade";
    static final String CONTINUE = "continue";
    static final String DISPATCHER = "dispatcher";
    /** An HTTP/2 connection's ({@link Http2Support#configure}), after TLS or the timeouts' place. */
    static final String H2_FLUSH = "h2-flush";
    static final String H2_ORDER = "h2-order";
    static final String H2_CODEC = "h2-codec";
    static final String H2_MUX = "h2-mux";
    static final String H2_STREAMS = "h2-streams";
    /** Each HTTP/2 stream's, before its guard, expect-continue and dispatcher ({@link Http2Support#streamPipeline}). */
    static final String H2_STREAM_CODEC = "h2-stream-codec";
    /** Where the stream codec was, once an extended CONNECT made the stream a byte stream. */
    static final String H2_BYTES = "h2-bytes";
    static final String H2_REQUEST = "h2-request";
    /** What only an HTTP conversation needs: removed when the connection switches to push. */
    private static final String[] HTTP_ONLY = {TIMEOUTS, GUARD, H2C_UPGRADE, CONTINUE, DISPATCHER};

    static final String HIJACKED = "hijacked";

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
    protected void initChannel(Channel ch) {
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
        if (config.http2()) {
            p.addLast(PREFACE, new Http2Preface(server));
        }
        addHttp1(p, config.http2());
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

    /** HTTP/2 from the connection's next byte on: for a TLS connection whose ALPN chose h2. */
    void addHttp2(ChannelPipeline p) {
        Http2Support.configure(p, server);
    }

    /**
     * The HTTP/1.1 handlers, from the decoder on, at the end of the pipeline; h2cUpgrade adds
     * Netty's {@code Upgrade: h2c} handler (cleartext only: over TLS, ALPN picks h2).
     */
    void addHttp1(ChannelPipeline p, boolean h2cUpgrade) {
        ServerConfig config = server.config;
        p.addLast(DECODER, new StrictRequestDecoder(decoderConfig.clone(), config.maxChunkExtensions()));
        p.addLast(ENCODER, new HttpResponseEncoder());
        p.addLast(DATE, DateHeader.INSTANCE);
        p.addLast(GUARD, new RequestGuard(config.maxHeaders()));
        if (h2cUpgrade) {
            p.addLast(H2C_UPGRADE, Http2Support.upgradeHandler(server));
        }
        p.addLast(CONTINUE, new ExpectContinue(config.maxBodySize()));
        p.addLast(DISPATCHER, new RackDispatcher(server));
    }

    /**
     * Removes the handlers only HTTP needs (timeouts, guard, h2c upgrade, expect-continue, dispatcher),
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

    /**
     * Hands the connection to {@code pump} ({@code rack.hijack}): every HTTP handler leaves,
     * the pump goes last, and the decoder goes after it, so bytes it had buffered and not
     * decoded (sent after the request head) reach the pump. Handlers nearer the socket that
     * are not HTTP's stay.
     */
    static void leaveForHijack(ChannelPipeline p, ChannelHandler pump) {
        leaveHttp(p);
        if (p.get(H2_STREAM_CODEC) != null) { // an HTTP/2 stream after its extended CONNECT: bytes from here on
            p.replace(H2_STREAM_CODEC, H2_BYTES, new Http2StreamBytes());
            p.remove(H2_REQUEST);
        }
        for (String name : new String[] {DATE, ENCODER}) {
            if (p.get(name) != null) {
                p.remove(name);
            }
        }
        p.addLast(HIJACKED, pump);
        if (p.get(DECODER) != null) {
            p.remove(DECODER);
        }
    }
}
