package org.nettyrack.netty.control;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpServerKeepAliveHandler;
import io.netty.handler.flow.FlowControlHandler;
import io.netty.handler.timeout.ReadTimeoutHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.BindException;
import java.util.concurrent.TimeUnit;
import org.nettyrack.core.config.ControlEndpoint;
import org.nettyrack.core.ops.ControlActions;
import org.nettyrack.netty.listen.InheritedSockets;
import org.nettyrack.netty.listen.Listeners;
import org.nettyrack.netty.listen.Transport;
import org.nettyrack.netty.response.DateHeader;

/**
 * The control endpoint's own small HTTP listener (TCP, or a unix socket), apart from the
 * application's: one event-loop thread, Netty's handlers for everything but the answers, and
 * a {@link ControlHandler}:
 * <pre>
 * read timeout → HTTP codec → keep-alive → aggregator (8 KB) → flow control → control handler
 * </pre>
 * Flow control holds pipelined requests while reading is paused for an answer that completes
 * later, so answers leave in request order.
 * Its connections count nowhere in the server's stats and are not drained on a stop: the
 * listener closes last, after the application's. The metrics listener ({@code --metrics-url})
 * is one more of these, answering {@code GET /metrics} and the probes only.
 */
public final class ControlServer {
    private static final int MAX_REQUEST = 8 * 1024;

    private final ControlEndpoint settings;
    private final long idleMillis;
    private final ControlActions control;
    private final Transport transport;
    private final boolean metricsOnly;
    private final Listeners listeners = new Listeners();
    private EventLoopGroup loop;

    /** idleMillis: a connection that sends nothing this long is closed. */
    public ControlServer(ControlEndpoint settings, long idleMillis, ControlActions control, Transport transport) {
        this(settings, idleMillis, control, transport, false);
    }

    /** metricsOnly: the metrics listener, {@code GET /metrics} and the probes only ({@link ControlHandler}). */
    public ControlServer(ControlEndpoint settings, long idleMillis, ControlActions control, Transport transport,
                         boolean metricsOnly) {
        this.settings = settings;
        this.idleMillis = idleMillis;
        this.control = control;
        this.transport = transport;
        this.metricsOnly = metricsOnly;
    }

    /**
     * Binds the endpoint, or takes over the inherited socket at its address; a new socket
     * answers at once (while the server boots too, for {@code GET /ready}), one taken over from
     * the process this one replaces only from {@link #accept} on: until then the old process
     * answers on it. Throws {@link BindException} with one sentence when it cannot listen.
     */
    public void start(InheritedSockets inherited) throws BindException, InterruptedException {
        loop = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("nettyrack-control", true),
            transport.ioHandlerFactory());
        ServerBootstrap bootstrap = new ServerBootstrap()
            .group(loop)
            .channel(transport.serverChannel())
            .option(ChannelOption.SO_REUSEADDR, true)
            .childHandler(new ChannelInitializer<Channel>() {
                @Override
                protected void initChannel(Channel ch) {
                    configure(ch.pipeline(), settings.token(), idleMillis, control, metricsOnly);
                }
            });
        if (!listeners.open(settings.listener(), bootstrap, transport, inherited)) {
            listeners.accept();
        }
    }

    /** Answers on a socket taken over too. */
    public void accept() {
        listeners.accept();
    }

    /** The listening socket's descriptor, for a hot restart's hand-over. */
    public int fileDescriptor() {
        return listeners.fileDescriptors().get(0);
    }

    /** Stops answering, leaving the socket to the process that took it over. */
    public void handOver() throws InterruptedException {
        listeners.handOver(null);
    }

    boolean unix() {
        return "unix".equals(settings.listener().scheme());
    }

    static void configure(ChannelPipeline p, String token, long idleMillis, ControlActions control) {
        configure(p, token, idleMillis, control, false);
    }

    static void configure(ChannelPipeline p, String token, long idleMillis, ControlActions control, boolean metricsOnly) {
        p.addLast(new ReadTimeoutHandler(idleMillis, TimeUnit.MILLISECONDS))
            .addLast(new HttpServerCodec())
            .addLast(DateHeader.INSTANCE)
            .addLast(new HttpServerKeepAliveHandler())
            .addLast(new HttpObjectAggregator(MAX_REQUEST))
            .addLast(new FlowControlHandler())
            .addLast(new ControlHandler(token, control, metricsOnly));
    }

    /** {@code tcp://host:port}, with the port actually bound, or {@code unix:///path}. */
    public String url() {
        if (unix()) {
            return settings.listener().url();
        }
        String host = settings.host().contains(":") ? "[" + settings.host() + "]" : settings.host();
        return "tcp://" + host + ":" + listeners.firstPort();
    }

    public void stop() throws InterruptedException {
        listeners.close();
        if (loop != null) {
            loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(2, TimeUnit.SECONDS);
        }
    }
}
