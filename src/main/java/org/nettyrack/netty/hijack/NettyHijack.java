package org.nettyrack.netty.hijack;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.epoll.EpollChannelConfig;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.channel.socket.DuplexChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.DefaultHttpHeadersFactory;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import java.io.IOException;
import java.net.InetSocketAddress;
import org.nettyrack.core.Hijack;
import org.nettyrack.core.ResponseHeaders;
import org.nettyrack.netty.pipeline.PipelineNames;
import org.nettyrack.netty.pipeline.Wire;

/**
 * The Netty door's {@code rack.hijack} ({@link Hijack}): made by
 * {@code NettyResponseSink.hijack} on the worker thread. {@link #connect} opens the server's
 * end of the loopback pair as a Netty channel on the connection's own event loop (not read
 * from yet); {@link #start}, on the event loop, writes a partial hijack's head, swaps the HTTP
 * handlers for a {@link HijackPump} (bytes the decoder had buffered go on to the application),
 * links the two pumps, and only then tells the sink's owner ({@code started}), so the
 * dispatcher sees a connection that is no longer HTTP. The same carries a {@code rack.protocol}
 * stream on an HTTP/2 extended CONNECT: the client side is then the stream (its connection's
 * transport makes the pair), which carries bytes once its codec gives way ({@link Wire#carryBytes}).
 */
public final class NettyHijack implements Hijack {
    private final Channel client;
    private final Wire wire;
    private final int status;
    private final ResponseHeaders headers;
    private final Runnable started;
    private final HijackPump toApp;
    private final HijackPump toClient;
    private Channel appEnd;

    /** headers: null for a full hijack. started: run on the event loop once bytes flow, or on cancel. */
    public NettyHijack(Channel client, Wire wire, int status, ResponseHeaders headers, long lingerMillis, Runnable started) {
        this.client = client;
        this.wire = wire;
        this.status = status;
        this.headers = headers;
        this.started = started;
        this.toApp = new HijackPump(0);
        this.toClient = new HijackPump(lingerMillis);
    }

    @Override
    public int connect(String host, int port) throws IOException {
        Channel socket = wire.connection(client); // a stream has no transport of its own
        boolean epoll = socket.config() instanceof EpollChannelConfig;
        ChannelFuture connected = new Bootstrap()
            .group(client.eventLoop())
            .channel(epoll ? EpollSocketChannel.class : NioSocketChannel.class)
            .option(ChannelOption.AUTO_READ, false)
            .option(ChannelOption.ALLOW_HALF_CLOSURE, true)
            .option(ChannelOption.TCP_NODELAY, true)
            .option(ChannelOption.WRITE_BUFFER_WATER_MARK, client.config().getWriteBufferWaterMark())
            .handler(toClient)
            .connect(host, port)
            .awaitUninterruptibly();
        if (!connected.isSuccess()) {
            throw new IOException("cannot connect the hijacked connection's loopback pair", connected.cause());
        }
        appEnd = connected.channel();
        return ((InetSocketAddress) appEnd.localAddress()).getPort();
    }

    @Override
    public void start() {
        client.eventLoop().execute(() -> {
            if (headers != null) {
                client.write(head());
            }
            leaveForHijack(client.pipeline(), wire, toApp); // may pass buffered bytes on
            toApp.peer(appEnd);
            toClient.peer(client);
            if (!client.isActive()) {
                appEnd.close();
            } else if (!appEnd.isActive()) {
                client.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
            }
            client.config().setAutoRead(true);
            appEnd.config().setAutoRead(true);
            if (client instanceof DuplexChannel && ((DuplexChannel) client).isInputShutdown()) {
                // the client half-closed while HTTP still had the connection: tell the application now
                client.pipeline().fireUserEventTriggered(ChannelInputShutdownEvent.INSTANCE);
            }
            started.run();
        });
    }

    @Override
    public void cancel() {
        client.eventLoop().execute(() -> {
            if (appEnd != null) {
                appEnd.close();
            }
            client.close();
            started.run();
        });
    }

    private DefaultHttpResponse head() {
        HttpHeaders out = DefaultHttpHeadersFactory.headersFactory().withValidation(false).newHeaders();
        for (int i = 0; i < headers.size(); i++) {
            String name = headers.name(i);
            if (!name.equalsIgnoreCase("content-length") && !name.equalsIgnoreCase("transfer-encoding")) {
                out.add(name, headers.value(i));
            }
        }
        return new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.valueOf(status), out);
    }

    /**
     * Hands the connection to {@code pump} ({@code rack.hijack}): every HTTP handler leaves,
     * the pump goes last, and the decoder goes after it, so bytes it had buffered and not
     * decoded (sent after the request head) reach the pump. Handlers nearer the socket that
     * are not HTTP's stay.
     */
    private static void leaveForHijack(ChannelPipeline p, Wire wire, ChannelHandler pump) {
        PipelineNames.leaveHttp(p);
        wire.carryBytes(p);
        PipelineNames.dropHttp1Writers(p);
        p.addLast(PipelineNames.HIJACKED, pump);
        if (p.get(PipelineNames.DECODER) != null) {
            p.remove(PipelineNames.DECODER);
        }
    }
}
