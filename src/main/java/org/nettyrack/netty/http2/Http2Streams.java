package org.nettyrack.netty.http2;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2StreamChannel;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.nettyrack.netty.exchange.RequestStage;
import org.nettyrack.netty.http1.ExpectContinue;
import org.nettyrack.netty.pipeline.ConnectionEvent;
import org.nettyrack.netty.pipeline.ServerState;

/**
 * Last in an HTTP/2 connection's pipeline, after Netty's multiplexer, one per connection: knows
 * the connection's open streams (it initialises each stream's child channel, see
 * {@link Http2Support#streamPipeline}) and ends the connection when it is no longer wanted:
 * <ul>
 * <li>no stream open for the keep-alive timeout: closed, after a GOAWAY (the frame codec sends
 * it on close);</li>
 * <li>the server drains ({@link ConnectionEvent#DRAIN}): every open stream hears it (an SSE
 * stream runs {@code on_shutdown}), then GOAWAY: streams in flight finish, new ones are
 * refused, and the connection closes after its last stream (the frame codec waits up to the
 * shutdown timeout).</li>
 * <li>the client half-closed: the same GOAWAY and close after the streams in flight.</li>
 * </ul>
 * Everything here runs on the connection's event loop, which its streams share.
 */
final class Http2Streams extends ChannelInboundHandlerAdapter {
    private final RequestStage stage;
    private final ServerState server;
    private final Set<Channel> open = new HashSet<>();
    /** Stateless: one for all the connection's streams. */
    private final ExpectContinue expectContinue;
    private ChannelHandlerContext ctx;
    private ScheduledFuture<?> idleTimer;

    Http2Streams(RequestStage stage) {
        this.stage = stage;
        this.server = stage.server();
        this.expectContinue = new ExpectContinue(server.config.limits().maxBodySize());
    }

    /** For Netty's multiplexer: builds each new stream's pipeline and counts the stream open until it closes. */
    ChannelInitializer<Http2StreamChannel> initializer() {
        return new ChannelInitializer<>() {
            @Override
            protected void initChannel(Http2StreamChannel stream) {
                opened(stream);
                Http2Support.streamPipeline(stream.pipeline(), stage, expectContinue);
            }
        };
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        if (open.isEmpty()) {
            armIdle();
        }
    }

    private void opened(Channel stream) {
        open.add(stream);
        cancelIdle();
        stream.closeFuture().addListener(f -> closed(stream));
    }

    private void closed(Channel stream) {
        if (open.remove(stream) && open.isEmpty() && ctx != null && ctx.channel().isActive()) {
            armIdle();
        }
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (evt == ConnectionEvent.DRAIN) {
            for (Channel stream : new ArrayList<>(open)) {
                stream.pipeline().fireUserEventTriggered(ConnectionEvent.DRAIN);
            }
            ctx.close();
        } else if (evt instanceof ChannelInputShutdownEvent) {
            ctx.close(); // nothing more can come: what was asked is answered, then the connection closes
        }
        super.userEventTriggered(ctx, evt);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        cancelIdle();
        super.channelInactive(ctx);
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        cancelIdle();
    }

    /** What reaches here is the connection's, not a stream's (the multiplexer took those): resets and the like. */
    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (Http2CodecUtil.getEmbeddedHttp2Exception(cause) == null) {
            ctx.close(); // an HTTP/2 error the frame codec answers itself, with its GOAWAY
        }
    }

    private void armIdle() {
        cancelIdle();
        idleTimer = ctx.executor().schedule(() -> {
            idleTimer = null;
            if (open.isEmpty()) {
                ctx.close();
            }
        }, server.config.timeouts().keepAliveTimeoutMillis(), TimeUnit.MILLISECONDS);
    }

    private void cancelIdle() {
        if (idleTimer != null) {
            idleTimer.cancel(false);
            idleTimer = null;
        }
    }
}
