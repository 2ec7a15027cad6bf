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
 * timeouts → [PROXY decoder → proxy] → decoder → encoder → guard → expect-continue → dispatcher
 * </pre>
 * With {@code --proxy-protocol}, Netty's PROXY protocol decoder and {@link ProxyProtocolHandler}
 * read the load balancer's header first, then leave the pipeline.
 * Netty's codec parses and frames; {@link RequestGuard} refuses what must not reach the
 * application; Netty's expect-continue handler answers {@code Expect: 100-continue};
 * {@link RackDispatcher} collects bodies and runs the application on the worker pool.
 */
final class HttpPipeline extends ChannelInitializer<SocketChannel> {
    private final ServerState server;
    private final HttpDecoderConfig decoderConfig;

    HttpPipeline(ServerState server) {
        this.server = server;
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
        p.addLast("timeouts", new RequestTimeouts(config.headerTimeoutMillis(), config.keepAliveTimeoutMillis()));
        if (config.proxyProtocol()) {
            p.addLast("proxy-decoder", new HAProxyMessageDecoder());
            p.addLast("proxy", new ProxyProtocolHandler(server.errorLog));
        }
        p.addLast("decoder", new StrictRequestDecoder(decoderConfig.clone(), config.maxChunkExtensions()));
        p.addLast("encoder", new HttpResponseEncoder());
        p.addLast("guard", new RequestGuard(config.maxHeaders()));
        p.addLast("continue", new ExpectContinue(config.maxBodySize()));
        p.addLast("dispatcher", new RackDispatcher(server));
    }
}
