package org.nettyrack.netty.http1;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.nettyrack.netty.pipeline.ConnectionEvent;
import org.nettyrack.netty.response.ErrorResponses;

/**
 * First in the pipeline, it bounds the time a connection may hold the server without asking
 * anything of the application:
 * <ul>
 * <li>a new connection, or one that began sending a request, has the header timeout to
 * deliver a complete request head (slow-loris defence); on expiry it gets 408 and is closed;</li>
 * <li>an idle keep-alive connection is closed after the keep-alive timeout.</li>
 * </ul>
 * While a request is being served nothing is timed here. The dispatcher reports the cycle
 * with {@link ConnectionEvent}s.
 *
 * <p>When the server drains ({@link ConnectionEvent#DRAIN}), a connection that has sent
 * nothing since its last response is closed once it has been quiet for the drain grace (at
 * once if it already has). A client that is busy sends its next request well within it and
 * gets an answer with {@code connection: close}, instead of a connection closed under a
 * request already on its way: the race every keep-alive server has when it closes idle
 * connections, made rare for clients that are not idle at all.
 *
 * <p>Each state sets a deadline; one timer per connection chases it, as Netty's
 * {@code IdleStateHandler} does. A timer that fires before the deadline (the deadline moved
 * on since) schedules itself again for the rest, so a keep-alive connection serving request
 * after request schedules about one timer per keep-alive period, not two per request; only
 * a deadline earlier than the pending timer replaces it.
 */
public final class RequestTimeouts extends ChannelInboundHandlerAdapter {
    /** How long a draining connection must have been quiet before it is closed. */
    static final long DRAIN_GRACE_MILLIS = 1_000;

    private enum State { IDLE, READING_HEAD, BUSY }

    private final long headerTimeoutMillis;
    private final long keepAliveTimeoutMillis;
    private State state = State.IDLE;
    private boolean heardFrom; // bytes arrived since the connection last went idle
    private boolean draining;
    private long quietSince;
    private long deadline; // ticker nanos, valid while timed
    private boolean timed;
    private ScheduledFuture<?> timer;
    private long timerAt; // when the pending timer fires, in ticker nanos

    public RequestTimeouts(long headerTimeoutMillis, long keepAliveTimeoutMillis) {
        this.headerTimeoutMillis = headerTimeoutMillis;
        this.keepAliveTimeoutMillis = keepAliveTimeoutMillis;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        quietSince = ctx.executor().ticker().nanoTime();
        enter(ctx, State.READING_HEAD);
        super.channelActive(ctx);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof ByteBuf && ((ByteBuf) msg).isReadable() && !heardFrom) {
            boolean drainTimer = draining && quiet();
            heardFrom = true;
            if (state == State.IDLE || drainTimer) {
                enter(ctx, State.READING_HEAD); // a request begins: the header timeout, not the idle one
            }
        }
        ctx.fireChannelRead(msg);
    }

    /**
     * {@link ConnectionEvent#REQUEST_HEAD} and {@link ConnectionEvent#IDLE} are for this handler
     * alone and end here (each request fires both: the rest of the pipeline need not see them);
     * {@link ConnectionEvent#DRAIN} goes on.
     */
    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (evt == ConnectionEvent.REQUEST_HEAD) {
            enter(ctx, State.BUSY);
            return;
        } else if (evt == ConnectionEvent.IDLE) {
            heardFrom = false;
            quietSince = ctx.executor().ticker().nanoTime();
            enter(ctx, State.IDLE);
            return;
        } else if (evt == ConnectionEvent.DRAIN) {
            draining = true;
            if (quiet()) {
                enter(ctx, state);
            }
        }
        super.userEventTriggered(ctx, evt);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        cancel();
        super.channelInactive(ctx);
    }

    /** The connection left HTTP/1.1 (HTTP/2, push): what it does next is not timed here. */
    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        cancel();
    }

    /** Idle, or connected and silent so far. */
    private boolean quiet() {
        return state == State.IDLE || state == State.READING_HEAD && !heardFrom;
    }

    private void enter(ChannelHandlerContext ctx, State next) {
        state = next;
        long now = ctx.executor().ticker().nanoTime();
        long delayMillis;
        if (draining && quiet()) {
            long quietMillis = TimeUnit.NANOSECONDS.toMillis(now - quietSince);
            delayMillis = Math.max(0, Math.min(DRAIN_GRACE_MILLIS, keepAliveTimeoutMillis) - quietMillis);
        } else if (next == State.READING_HEAD) {
            delayMillis = headerTimeoutMillis;
        } else if (next == State.IDLE) {
            delayMillis = keepAliveTimeoutMillis;
        } else {
            timed = false; // a pending timer finds nothing to do
            return;
        }
        if (delayMillis == 0) {
            timed = false;
            expire(ctx);
            return;
        }
        timed = true;
        deadline = now + TimeUnit.MILLISECONDS.toNanos(delayMillis);
        if (timer != null && timerAt - deadline > 0) {
            cancel(); // fires too late for this deadline
        }
        if (timer == null) {
            schedule(ctx, now);
        }
    }

    private void schedule(ChannelHandlerContext ctx, long now) {
        timerAt = deadline;
        timer = ctx.executor().schedule(() -> fire(ctx), deadline - now, TimeUnit.NANOSECONDS);
    }

    /** The timer: expires the connection at its deadline, or follows a deadline that moved on. */
    private void fire(ChannelHandlerContext ctx) {
        timer = null;
        if (!timed) {
            return;
        }
        long now = ctx.executor().ticker().nanoTime();
        if (deadline - now > 0) {
            schedule(ctx, now);
            return;
        }
        timed = false;
        expire(ctx);
    }

    private void expire(ChannelHandlerContext ctx) {
        if (draining && quiet() || state == State.IDLE) {
            ctx.close();
        } else if (state == State.READING_HEAD) {
            ctx.writeAndFlush(ErrorResponses.encoded(HttpResponseStatus.REQUEST_TIMEOUT)).addListener(ChannelFutureListener.CLOSE);
        }
    }

    private void cancel() {
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
    }
}
