package org.nettyrack.netty.exchange;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import org.nettyrack.core.BodyDeadline;
import org.nettyrack.core.RequestBodyBuffer;
import org.nettyrack.netty.http1.Refusal;
import org.nettyrack.netty.listen.ProxyProtocolHandler;
import org.nettyrack.netty.pipeline.ConnectionEvent;
import org.nettyrack.netty.pipeline.ServerState;
import org.nettyrack.netty.pipeline.Wire;

/**
 * Just before the {@link RackDispatcher}, one per connection (or HTTP/2 stream): turns a decoded
 * request head and its body parts into one complete {@link NettyRackRequest}, the way Netty's
 * {@code HttpObjectAggregator} emits a full message, or into a {@link Refusal}: 413 when the
 * declared or received body passes {@code --max-body-size}, 408 when it arrives too slowly
 * ({@link BodyDeadline}). The body goes to memory or a temp file ({@link RequestBodyBuffer}).
 * A {@link Refusal} from further up (the guard's) passes on, dropping a body half collected.
 * An extended CONNECT (RFC 8441) is passed on at its head: its data is the new protocol's,
 * and reading waits for the application's answer. Runs on the channel's event loop.
 */
public final class BodyCollector extends ChannelInboundHandlerAdapter {
    private final ServerState server;
    private final Wire wire;
    private ChannelHandlerContext ctx;
    private boolean secure;
    /** On an HTTP/1.x connection, whose timeouts handler hears of each request head; an HTTP/2 stream has none. */
    private boolean timed;
    private HttpRequest head;
    private long headNanos;
    private RequestBodyBuffer body;
    private BodyDeadline bodyDeadline;
    private ScheduledFuture<?> bodyTimer;

    public BodyCollector(ServerState server, Wire wire) {
        this.server = server;
        this.wire = wire;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        timed = !wire.isStream();
        secure = wire.connection(ctx.channel()).pipeline().get(SslHandler.class) != null;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof Refusal refusal) {
            refuse(refusal);
            return;
        }
        try {
            if (msg instanceof HttpRequest request) {
                startRequest(request);
            }
            if (msg instanceof HttpContent content && head != null) {
                collect(content);
            }
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    private void startRequest(HttpRequest request) {
        if (timed) {
            ctx.pipeline().fireUserEventTriggered(ConnectionEvent.REQUEST_HEAD);
        }
        body = new RequestBodyBuffer(server.config.limits().bodyBufferSize(), server.config.limits().maxBodySize());
        if (!body.accepts(HttpUtil.getContentLength(request, 0L))) {
            refuse(new Refusal(HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE, HttpMethod.HEAD.equals(request.method())));
            return;
        }
        head = request;
        bodyDeadline = new BodyDeadline(ctx.executor().ticker().nanoTime(), server.config.timeouts().bodyTimeoutMillis(), server.config.timeouts().bodyMinRate());
        headNanos = System.nanoTime();
        String connectProtocol = wire.connectProtocol(ctx.channel());
        if (connectProtocol != null) {
            // RFC 8441: the stream's data is the new protocol's, not a body: the app answers
            // now, and reading waits for its answer (a 2xx hands the stream on, else reading
            // resumes with the response).
            ctx.channel().config().setAutoRead(false);
            ctx.fireChannelRead(completed(connectProtocol));
        }
    }

    private void collect(HttpContent content) {
        ByteBuf buf = content.content();
        bodyDeadline.received(buf.readableBytes());
        if (buf.isReadable()) {
            for (ByteBuffer part : buf.nioBuffers()) {
                if (!body.append(part)) {
                    refuse(HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE);
                    return;
                }
            }
        }
        if (content instanceof LastHttpContent) {
            disarmBodyTimer();
            ctx.fireChannelRead(completed(null));
        }
    }

    /** The request whose head (and body so far) this handler collected; it then holds neither. */
    private NettyRackRequest completed(String connectProtocol) {
        NettyRackRequest request = new NettyRackRequest(head, body.finish(),
            ProxyProtocolHandler.clientAddress(wire.connection(ctx.channel())), ctx.channel().localAddress(), headNanos,
            wire.protocol(), secure, connectProtocol);
        head = null;
        body = null;
        return request;
    }

    /**
     * A body still arriving when a read ends is timed ({@link BodyDeadline}); bodies that came
     * with their head, the usual case, never start a timer.
     */
    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (head != null && bodyTimer == null) {
            scheduleBodyCheck(bodyDeadline.remainingNanos(ctx.executor().ticker().nanoTime()));
        }
        ctx.fireChannelReadComplete();
    }

    private void scheduleBodyCheck(long delayNanos) {
        bodyTimer = ctx.executor().schedule(this::checkBody, Math.max(delayNanos, 1_000_000L), TimeUnit.NANOSECONDS);
    }

    private void checkBody() {
        bodyTimer = null;
        if (head == null) {
            return;
        }
        long left = bodyDeadline.remainingNanos(ctx.executor().ticker().nanoTime());
        if (left > 0 || !ctx.channel().config().isAutoRead()) {
            // Still earning time, or the dispatcher paused reading: not the client's fault.
            scheduleBodyCheck(left > 0 ? left : server.config.timeouts().bodyTimeoutMillis() * 1_000_000L);
            return;
        }
        refuse(HttpResponseStatus.REQUEST_TIMEOUT);
    }

    private void refuse(HttpResponseStatus status) {
        refuse(new Refusal(status, head != null && HttpMethod.HEAD.equals(head.method())));
    }

    /** Drops the request being collected and passes the refusal on to the dispatcher, which orders the answers. */
    private void refuse(Refusal refusal) {
        dropBody();
        ctx.fireChannelRead(refusal);
    }

    private void disarmBodyTimer() {
        if (bodyTimer != null) {
            bodyTimer.cancel(false);
            bodyTimer = null;
        }
    }

    private void dropBody() {
        disarmBodyTimer();
        head = null;
        if (body != null) {
            body.discard();
            body = null;
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        dropBody();
        super.channelInactive(ctx);
    }

    /** Leaving the pipeline (the connection switched to push or was hijacked): a body still arriving is dropped. */
    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        dropBody();
    }
}
