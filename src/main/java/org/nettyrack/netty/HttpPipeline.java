package org.nettyrack.netty;

import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.haproxy.HAProxyMessageDecoder;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpResponseEncoder;
import org.nettyrack.core.config.ServerConfig;
import org.nettyrack.core.config.Timeouts;
import org.nettyrack.netty.exchange.RequestStage;
import org.nettyrack.netty.http1.ExpectContinue;
import org.nettyrack.netty.http1.Http1Wire;
import org.nettyrack.netty.http1.RequestGuard;
import org.nettyrack.netty.http1.RequestHeaders;
import org.nettyrack.netty.http1.RequestTimeouts;
import org.nettyrack.netty.http1.StrictRequestDecoder;
import org.nettyrack.netty.http2.Http2Preface;
import org.nettyrack.netty.http2.Http2Support;
import org.nettyrack.netty.listen.ConnectionLimit;
import org.nettyrack.netty.listen.ProxyProtocolHandler;
import org.nettyrack.netty.pipeline.PipelineNames;
import org.nettyrack.netty.pipeline.ServerState;
import org.nettyrack.netty.response.DateHeader;
import org.nettyrack.netty.tls.AlpnRouter;
import org.nettyrack.netty.tls.TlsListener;
import org.nettyrack.netty.tls.TlsSniffer;

/**
 * Builds each connection's pipeline, TCP or unix socket alike, as docs/architecture.md draws
 * it ("Each connection's pipeline"): the PROXY handlers with {@code --proxy-protocol}
 * ({@link ProxyProtocolHandler}); on a TLS listener ({@link TlsListener}) the
 * {@link TlsSniffer}, ahead of the timeouts so that their 408 is encrypted, and the
 * {@link AlpnRouter}, which adds HTTP/1.1's handlers or HTTP/2's ({@link Http2Support#configure})
 * once the handshake is done; with h2c on, {@link Http2Preface} and Netty's upgrade handler
 * ({@link Http2Support#upgradeHandler}); then HTTP/1.1's: Netty's codec (our
 * {@link StrictRequestDecoder}), {@link DateHeader}, {@link RequestGuard}, {@link ExpectContinue},
 * and the {@link RequestStage}, given {@link Http1Wire}. Each connection accepted counts
 * against the server's {@link ConnectionLimit}.
 */
public final class HttpPipeline extends ChannelInitializer<Channel> {
    private final RequestStage stage;
    private final ServerState server;
    private final ConnectionLimit connections;
    private final TlsListener tls;
    private final HttpDecoderConfig decoderConfig;

    /** connections: the server's cap, which counts each connection accepted; tls: the listener's TLS state, or null for cleartext. */
    public HttpPipeline(RequestStage stage, ConnectionLimit connections, TlsListener tls) {
        this.stage = stage;
        this.server = stage.server();
        this.connections = connections;
        this.tls = tls;
        ServerConfig config = server.config;
        this.decoderConfig = new HttpDecoderConfig()
            .setMaxInitialLineLength(config.limits().maxUriLength())
            .setMaxHeaderSize(config.limits().maxHeaderSize())
            .setMaxChunkSize(64 * 1024)
            .setAllowDuplicateContentLengths(false)
            .setHeadersFactory(RequestHeaders.FACTORY);
    }

    @Override
    protected void initChannel(Channel ch) {
        connections.accepted(ch);
        server.channels.add(ch);
        configure(ch.pipeline());
    }

    public void configure(ChannelPipeline p) {
        ServerConfig config = server.config;
        if (tls != null) {
            addProxy(p);
            p.addLast(PipelineNames.TLS, new TlsSniffer(tls.context(), config.timeouts().headerTimeoutMillis()));
            p.addLast(PipelineNames.TIMEOUTS, timeouts());
            p.addLast(PipelineNames.ALPN, new AlpnRouter(p1 -> addHttp1(p1, false), this::addHttp2));
            return;
        }
        p.addLast(PipelineNames.TIMEOUTS, timeouts());
        addProxy(p);
        if (config.http2Settings().enabled()) {
            p.addLast(PipelineNames.PREFACE, new Http2Preface(stage));
        }
        addHttp1(p, config.http2Settings().enabled());
    }

    private RequestTimeouts timeouts() {
        Timeouts timeouts = server.config.timeouts();
        return new RequestTimeouts(timeouts.headerTimeoutMillis(), timeouts.keepAliveTimeoutMillis());
    }

    private void addProxy(ChannelPipeline p) {
        if (server.config.listen().proxyProtocol()) {
            p.addLast(PipelineNames.PROXY_DECODER, new HAProxyMessageDecoder());
            p.addLast(PipelineNames.PROXY, new ProxyProtocolHandler(server.errorLog));
        }
    }

    /** HTTP/2 from the connection's next byte on: for a TLS connection whose ALPN chose h2. */
    void addHttp2(ChannelPipeline p) {
        Http2Support.configure(p, stage);
    }

    /**
     * The HTTP/1.1 handlers, from the decoder on, at the end of the pipeline; h2cUpgrade adds
     * Netty's {@code Upgrade: h2c} handler (cleartext only: over TLS, ALPN picks h2).
     */
    void addHttp1(ChannelPipeline p, boolean h2cUpgrade) {
        ServerConfig config = server.config;
        p.addLast(PipelineNames.DECODER, new StrictRequestDecoder(decoderConfig.clone(), config.limits().maxChunkExtensions()));
        p.addLast(PipelineNames.ENCODER, new HttpResponseEncoder());
        p.addLast(PipelineNames.DATE, DateHeader.INSTANCE);
        p.addLast(PipelineNames.GUARD, new RequestGuard(config.limits().maxHeaders()));
        if (h2cUpgrade) {
            p.addLast(PipelineNames.H2C_UPGRADE, Http2Support.upgradeHandler(stage));
        }
        p.addLast(PipelineNames.CONTINUE, new ExpectContinue(config.limits().maxBodySize()));
        stage.addTo(p, Http1Wire.INSTANCE);
    }
}
