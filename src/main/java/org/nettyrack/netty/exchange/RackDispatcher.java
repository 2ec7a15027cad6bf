package org.nettyrack.netty.exchange;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.util.ReferenceCountUtil;
import java.util.ArrayDeque;
import org.nettyrack.core.FailureResponse;
import org.nettyrack.core.push.UpgradeRefusal;
import org.nettyrack.core.warmup.RecentRequests;
import org.nettyrack.netty.files.PublicFiles;
import org.nettyrack.netty.http1.Refusal;
import org.nettyrack.netty.pipeline.ActiveRequest;
import org.nettyrack.netty.pipeline.ConnectionEvent;
import org.nettyrack.netty.pipeline.ServerState;
import org.nettyrack.netty.pipeline.Wire;
import org.nettyrack.netty.push.PushUpgrade;
import org.nettyrack.netty.response.ErrorResponses;

/**
 * Last in the pipeline, one per connection (or HTTP/2 stream), behind the {@link BodyCollector}:
 * hands each complete request to the worker pool, one at a time. Flow: a
 * {@link NettyRackRequest} arrives → a public file answered here on the event loop
 * ({@code PublicFiles}, with {@code --public}), or the worker runs the app
 * ({@link FailureResponse#serve}) → {@link NettyResponseSink} writes → its {@code done()} reports a
 * {@link ResponseOutcome} back on this event loop → next pipelined request, or idle; or, when
 * the application accepted an upgrade, {@link PushUpgrade} takes the connection and this
 * handler leaves the pipeline (as it does when the application hijacked it).
 * The hand-off goes one way: the sink knows nothing of this handler.
 *
 * <p>A connection has at most one request with the application at a time, so pipelined
 * responses leave in request order; requests decoded meanwhile wait here, and reading
 * pauses when too many wait. A {@link Refusal} (413, 408, a bad head) leaves after the
 * answers before it, then the connection closes. Each request handed on holds an
 * {@link ActiveRequest} until its exchange ends. Everything here runs on the event loop.
 */
public final class RackDispatcher extends ChannelInboundHandlerAdapter {
    private static final int MAX_WAITING = 16;

    private final ServerState server;
    private final PublicFiles publicFiles;
    private final Wire wire;
    private final ArrayDeque<NettyRackRequest> waiting = new ArrayDeque<>();
    private ChannelHandlerContext ctx;
    private NettyResponseSink inFlight;
    private boolean closeWhenIdle;
    private Refusal pendingRefusal;

    /** publicFiles: answered on the event loop before the application; null without {@code --public}. */
    public RackDispatcher(ServerState server, PublicFiles publicFiles, Wire wire) {
        this.server = server;
        this.publicFiles = publicFiles;
        this.wire = wire;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof NettyRackRequest request) {
            accept(request);
        } else if (msg instanceof Refusal refusal) {
            refuse(refusal);
        } else {
            ReferenceCountUtil.release(msg);
        }
    }

    private void accept(NettyRackRequest request) {
        if (inFlight == null) {
            dispatch(request);
            return;
        }
        waiting.add(request);
        if (waiting.size() >= MAX_WAITING) {
            ctx.channel().config().setAutoRead(false);
        }
    }

    /** The upgrade to make: what the request asked for and what the application answered. */
    private static PushUpgrade.Handshake handshake(NettyRackRequest request, ResponseOutcome.Upgraded accepted) {
        return new PushUpgrade.Handshake(request.head(), request.scheme(), request.upgrade(), accepted.status(),
            accepted.headers(), accepted.endpoint());
    }

    /** The refusal leaves once the answers before it have; then the connection closes. */
    private void refuse(Refusal refusal) {
        ctx.channel().config().setAutoRead(false);
        if (inFlight == null) {
            ErrorResponses.sendAndClose(ctx, wire, refusal.status(), refusal.head());
        } else {
            pendingRefusal = refusal;
        }
    }

    private void dispatch(NettyRackRequest request) {
        NettyResponseSink sink = new NettyResponseSink(ctx.channel(), request, server, wire);
        inFlight = sink;
        ActiveRequest active = server.activeRequest();
        sink.done().addListener(f -> exchangeEnded(sink, sink.done().getNow(), active));
        if (publicFiles != null && publicFiles.serve(request, sink)) {
            return;
        }
        request.times().dispatched();
        boolean accepted = server.workers.submit(() -> FailureResponse.serve(server.handler, request, sink, server.errorLog));
        if (!accepted) {
            server.counters.rejected();
            sink.unavailable();
        }
    }

    /** On the event loop once the sink says how the exchange ended. */
    private void exchangeEnded(NettyResponseSink sink, ResponseOutcome outcome, ActiveRequest active) {
        if (sink != inFlight) {
            return;
        }
        inFlight = null;
        NettyRackRequest request = sink.request();
        request.body().close();
        if (outcome instanceof ResponseOutcome.Responded responded) {
            active.release();
            logAccess(request, responded.status(), responded.bytesSent());
            next();
        } else if (outcome instanceof ResponseOutcome.Upgraded upgraded) {
            upgrade(request, upgraded, active);
        } else if (outcome instanceof ResponseOutcome.Hijacked hijacked) { // the connection is the application's now
            active.release();
            logAccess(request, hijacked.status(), 0);
        }
    }

    /** After an answer: the next pipelined request, a refusal waiting its turn, a close, or idle. */
    private void next() {
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
            ErrorResponses.sendAndClose(ctx, wire, pendingRefusal.status(), pendingRefusal.head());
            return;
        }
        if (closeWhenIdle) {
            ctx.close();
            return;
        }
        ctx.channel().config().setAutoRead(true);
        if (!wire.isStream()) { // a stream has no timeouts handler: its connection's idle is its streams handler's
            ctx.pipeline().fireUserEventTriggered(ConnectionEvent.IDLE);
        }
    }

    /**
     * The application accepted an upgrade: the connection leaves HTTP for good. Requests
     * pipelined behind the upgrade are dropped; the push handler holds the request's
     * {@link ActiveRequest} (a graceful stop waits for it) until the connection closes. A server
     * that began draining meanwhile (or a client that half-closed) is refused as
     * {@link UpgradeRefusal} says: nothing would ever tell that connection to close.
     */
    private void upgrade(NettyRackRequest request, ResponseOutcome.Upgraded accepted, ActiveRequest active) {
        dropWaiting();
        boolean open = ctx.channel().isActive();
        UpgradeRefusal refusal = UpgradeRefusal.before(server.draining || closeWhenIdle);
        int sent = refusal == null && open ? PushUpgrade.start(ctx.channel(), server, wire, handshake(request, accepted), active)
            : PushUpgrade.NOT_STARTED;
        if (refusal == null && sent == PushUpgrade.NOT_STARTED) {
            refusal = UpgradeRefusal.BAD_HANDSHAKE;
        }
        logAccess(request, refusal == null ? sent : refusal.status(), 0); // the status on the wire, not the app's
        if (refusal == null) {
            return; // this handler has left the pipeline
        }
        active.release();
        refusal.closeUnopened(server.workers, accepted.endpoint(), server.errorLog);
        if (open) {
            ErrorResponses.sendAndClose(ctx, wire, HttpResponseStatus.valueOf(refusal.status()), false);
        }
    }

    private void logAccess(NettyRackRequest request, int status, long bytes) {
        long end = System.nanoTime();
        server.counters.answered(request, status, end);
        RecentRequests recent = server.recent();
        if (recent != null) {
            recent.answered(request.method(), request.target(), status);
        }
        if (server.accessLog != null) {
            server.accessLog.log(request, status, bytes, end);
        }
        server.tracer.finished(request, status, bytes, end);
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
        dropWaiting();
        if (inFlight != null) {
            inFlight.wakeWriter();
        }
        super.channelInactive(ctx);
    }

    /** Leaving the pipeline (the connection switched to push or was hijacked). */
    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        dropWaiting();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (wire.isProtocolError(cause)) { // answered by the channel's own end (an HTTP/2 stream's reset)
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
