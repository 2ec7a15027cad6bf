package org.nettyrack.netty.exchange;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2StreamChannel;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import org.nettyrack.core.BodyDeadline;
import org.nettyrack.core.FailureResponse;
import org.nettyrack.core.RequestBodyBuffer;
import org.nettyrack.core.push.UpgradeRefusal;
import org.nettyrack.netty.ConnectionEvent;
import org.nettyrack.netty.ServerState;
import org.nettyrack.netty.http1.ErrorResponses;
import org.nettyrack.netty.http1.Refusal;
import org.nettyrack.netty.http2.Http2Request;
import org.nettyrack.netty.listen.ProxyProtocolHandler;
import org.nettyrack.netty.push.PushUpgrade;

/**
 * Last in the pipeline, one per connection: turns decoded HTTP objects into complete
 * requests and hands each to the worker pool. Flow: head → body collected (memory or temp
 * file, 413 past the limit, 408 when it arrives too slowly) → a public file answered here
 * on the event loop ({@code PublicFiles}, with {@code --public}), or the worker runs the app
 * ({@link FailureResponse#serve}) → {@link NettyResponseSink} writes → its {@code done()} back on
 * this event loop → next pipelined request, or idle; or, when the application accepted an
 * upgrade, {@link PushUpgrade} takes the connection and this handler leaves the pipeline
 * (as it does when the application hijacked it, {@code NettyHijack}).
 * The hand-off goes one way: the sink knows nothing of this handler, which listens to the
 * sink's future and passes an accepted upgrade on.
 *
 * <p>A connection has at most one request with the application at a time, so pipelined
 * responses leave in request order; requests decoded meanwhile wait here, and reading
 * pauses when too many wait. Everything here runs on the channel's event loop.
 */
public final class RackDispatcher extends ChannelInboundHandlerAdapter {
    private static final int MAX_WAITING = 16;

    private final ServerState server;
    private final String protocol;
    private final ArrayDeque<NettyRackRequest> waiting = new ArrayDeque<>();
    private ChannelHandlerContext ctx;
    private HttpRequest head;
    private long headNanos;
    private RequestBodyBuffer body;
    private BodyDeadline bodyDeadline;
    private ScheduledFuture<?> bodyTimer;
    private NettyResponseSink inFlight;
    private boolean closeWhenIdle;
    private Refusal pendingRefusal;
    private boolean secure;

    public RackDispatcher(ServerState server) {
        this(server, null);
    }

    /** protocol: what requests say they came by ({@code HTTP/2}), or null for their request line's version. */
    public RackDispatcher(ServerState server, String protocol) {
        this.server = server;
        this.protocol = protocol;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        Channel connection = ctx.channel() instanceof Http2StreamChannel ? ctx.channel().parent() : ctx.channel();
        secure = connection.pipeline().get(SslHandler.class) != null;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        try {
            if (msg instanceof Refusal) {
                refuse((Refusal) msg);
                return;
            }
            if (msg instanceof HttpRequest) {
                startRequest((HttpRequest) msg);
            }
            if (msg instanceof HttpContent && head != null) {
                collect((HttpContent) msg);
            }
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    private void startRequest(HttpRequest request) {
        ctx.pipeline().fireUserEventTriggered(ConnectionEvent.REQUEST_HEAD);
        body = new RequestBodyBuffer(server.config.limits().bodyBufferSize(), server.config.limits().maxBodySize());
        if (!body.accepts(HttpUtil.getContentLength(request, 0L))) {
            refuse(new Refusal(HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE, HttpMethod.HEAD.equals(request.method())));
            return;
        }
        head = request;
        bodyDeadline = new BodyDeadline(ctx.executor().ticker().nanoTime(), server.config.timeouts().bodyTimeoutMillis(),
            server.config.timeouts().bodyMinRate());
        headNanos = System.nanoTime();
        String connectProtocol = ctx.channel().attr(Http2Request.CONNECT_PROTOCOL).get();
        if (connectProtocol != null) {
            // RFC 8441: the stream's data is the new protocol's, not a body: the app answers
            // now, and reading waits for its answer (a 2xx hands the stream on, else reading
            // resumes with the response).
            ctx.channel().config().setAutoRead(false);
            dispatch(completed(connectProtocol));
        }
    }

    /** The request whose head (and body so far) this handler collected; it then holds neither. */
    private NettyRackRequest completed(String connectProtocol) {
        NettyRackRequest request = new NettyRackRequest(head, body.finish(), ProxyProtocolHandler.clientAddress(ctx.channel()),
            ctx.channel().localAddress(), headNanos, protocol, secure, connectProtocol);
        head = null;
        body = null;
        return request;
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
            NettyRackRequest request = completed(null);
            disarmBodyTimer();
            if (inFlight == null) {
                dispatch(request);
            } else {
                waiting.add(request);
                if (waiting.size() >= MAX_WAITING) {
                    ctx.channel().config().setAutoRead(false);
                }
            }
        }
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
            // Still earning time, or we paused reading ourselves: not the client's fault.
            scheduleBodyCheck(left > 0 ? left : server.config.timeouts().bodyTimeoutMillis() * 1_000_000L);
            return;
        }
        refuse(HttpResponseStatus.REQUEST_TIMEOUT);
    }

    private void disarmBodyTimer() {
        if (bodyTimer != null) {
            bodyTimer.cancel(false);
            bodyTimer = null;
        }
    }

    /** Answers a request the server will not read to the end, then closes. */
    private void refuse(HttpResponseStatus status) {
        refuse(new Refusal(status, head != null && HttpMethod.HEAD.equals(head.method())));
    }

    /** The refusal leaves once the answers before it have; then the connection closes. */
    private void refuse(Refusal refusal) {
        disarmBodyTimer();
        head = null;
        if (body != null) {
            body.discard();
            body = null;
        }
        ctx.channel().config().setAutoRead(false);
        if (inFlight == null) {
            ErrorResponses.sendAndClose(ctx, refusal.status(), refusal.head());
        } else {
            pendingRefusal = refusal;
        }
    }

    private void dispatch(NettyRackRequest request) {
        NettyResponseSink sink = new NettyResponseSink(ctx.channel(), request, server);
        inFlight = sink;
        server.activeRequests.incrementAndGet();
        sink.done().addListener(f -> responseDone(sink));
        if (server.publicFiles != null && server.publicFiles.serve(request, sink)) {
            return;
        }
        boolean accepted = server.workers.submit(() -> FailureResponse.serve(server.handler, request, sink, server.errorLog));
        if (!accepted) {
            server.counters.rejected();
            sink.unavailable();
        }
    }

    /** On the event loop once a response's last byte was written (or failed), or an upgrade was accepted. */
    private void responseDone(NettyResponseSink sink) {
        if (sink != inFlight) {
            return;
        }
        inFlight = null;
        NettyRackRequest request = sink.request();
        request.body().close();
        if (sink.hijacked()) { // the connection is the application's now; this handler has left
            server.activeRequests.decrementAndGet();
            logAccess(request, sink.status(), 0);
            return;
        }
        PushUpgrade.Accepted upgrade = sink.upgrade();
        if (upgrade != null) {
            upgrade(request, upgrade);
            return;
        }
        server.activeRequests.decrementAndGet();
        logAccess(request, sink.status(), sink.bytesSent());
        if (!ctx.channel().isActive()) {
            dropWaiting();
            return;
        }
        NettyRackRequest next = waiting.poll();
        if (next != null) {
            dispatch(next); // also while draining: its answer says connection: close
            return;
        }
        if (pendingRefusal != null) {
            ErrorResponses.sendAndClose(ctx, pendingRefusal.status(), pendingRefusal.head());
            return;
        }
        if (closeWhenIdle) {
            ctx.close();
            return;
        }
        ctx.channel().config().setAutoRead(true);
        ctx.pipeline().fireUserEventTriggered(ConnectionEvent.IDLE);
    }

    /**
     * The application accepted an upgrade: the connection leaves HTTP for good. Requests
     * pipelined behind the upgrade are dropped; the connection still counts as active (a
     * graceful stop waits for it) until {@code PushHandler} sees it close. A server that began
     * draining meanwhile (or a client that half-closed) is refused as {@link UpgradeRefusal}
     * says: nothing would ever tell that connection to close.
     */
    private void upgrade(NettyRackRequest request, PushUpgrade.Accepted accepted) {
        dropWaiting();
        boolean open = ctx.channel().isActive();
        UpgradeRefusal refusal = UpgradeRefusal.before(server.draining || closeWhenIdle);
        int sent = refusal == null && open ? PushUpgrade.start(ctx.channel(), server, request, accepted)
            : PushUpgrade.NOT_STARTED;
        if (refusal == null && sent == PushUpgrade.NOT_STARTED) {
            refusal = UpgradeRefusal.BAD_HANDSHAKE;
        }
        logAccess(request, refusal == null ? sent : refusal.status(), 0); // the status on the wire, not the app's
        if (refusal == null) {
            return; // this handler has left the pipeline
        }
        server.activeRequests.decrementAndGet();
        refusal.closeUnopened(server.workers, accepted.endpoint(), server.errorLog);
        if (open) {
            ErrorResponses.sendAndClose(ctx, HttpResponseStatus.valueOf(refusal.status()), false);
        }
    }

    private void logAccess(NettyRackRequest request, int status, long bytes) {
        server.counters.answered(status);
        if (server.accessLog != null) {
            server.accessLog.log(request, status, bytes, request.startNanos);
        }
    }

    /**
     * A client that half-closed after sending its requests ("printf | nc") gets what it sent
     * answered, then the connection closes. (A draining server's idle connections are closed
     * by {@code RequestTimeouts}; busy ones by their next answer's {@code connection: close}.)
     */
    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (evt instanceof ChannelInputShutdownEvent) {
            closeWhenIdle = true;
            if (inFlight == null && waiting.isEmpty()) {
                ctx.close();
            }
        }
        super.userEventTriggered(ctx, evt);
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
        if (inFlight != null) {
            inFlight.wakeWriter();
        }
        super.channelWritabilityChanged(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        disarmBodyTimer();
        if (body != null) {
            body.discard();
            body = null;
        }
        dropWaiting();
        if (inFlight != null) {
            inFlight.wakeWriter();
        }
        super.channelInactive(ctx);
    }

    /** Leaving the pipeline (the connection switched to push): a body still arriving is dropped. */
    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        disarmBodyTimer();
        if (body != null) {
            body.discard();
            body = null;
        }
        dropWaiting();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (ctx.channel() instanceof Http2StreamChannel && Http2CodecUtil.getEmbeddedHttp2Exception(cause) != null) {
            // A protocol error on this stream (a frame in the wrong state, a content-length the
            // DATA does not match): the stream channel's own end resets it with the error's
            // code (RFC 9113 section 5.4.2); a plain close would reset it with CANCEL.
            ctx.fireExceptionCaught(cause);
            return;
        }
        // Connection resets and the like: nothing to answer, the peer is gone.
        ctx.close();
    }

    private void dropWaiting() {
        for (NettyRackRequest r; (r = waiting.poll()) != null; ) {
            r.body().close();
        }
    }
}
