package org.nettyrack.netty.push;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.nettyrack.core.PushConnection;
import org.nettyrack.core.Upgrade;
import org.nettyrack.core.push.IdlePolicy;
import org.nettyrack.core.push.PushClose;
import org.nettyrack.core.push.PushLifecycle;
import org.nettyrack.core.push.PushTally;
import org.nettyrack.core.push.PushSession;
import org.nettyrack.core.push.SendBacklog;

/**
 * One upgraded connection as the application's client sees it, usable from any thread: the
 * Netty side of the core's {@link PushLifecycle}, which says whether a write, a keep-alive or
 * a close may go out; this class only writes to the channel. Writes go to the channel at once
 * (Netty queues them in its outbound buffer), counted by the lifecycle's {@link SendBacklog}:
 * a write that would pass the queue limit is refused and the connection closed (1008), and
 * {@code on_drained} is reported when a queue that had backed up behind a slow reader (the
 * channel not writable) is empty again. A lock orders writes against the close, so no message
 * can follow a WebSocket close frame. The timeout and close wait are the lifecycle's
 * {@link IdlePolicy}; {@link PushHandler} acts on its timers and reports the channel's end.
 *
 * <p>The framing is {@link PushFraming}'s: WebSocket frames or Server-Sent Events.
 */
final class NettyPushConnection implements PushConnection {
    private final Channel channel;
    private final PushFraming framing;
    private final PushLifecycle lifecycle;
    private volatile PushSession session;
    private Runnable timeoutChanged = () -> { };

    NettyPushConnection(Channel channel, PushFraming framing, long maxQueue, long timeoutMillis) {
        this(channel, framing, maxQueue, timeoutMillis, PushTally.NONE);
    }

    /** tally: where each write is counted, sent or dropped, and a close for a write past {@code maxQueue}. */
    NettyPushConnection(Channel channel, PushFraming framing, long maxQueue, long timeoutMillis, PushTally tally) {
        this.channel = channel;
        this.framing = framing;
        this.lifecycle = new PushLifecycle(framing.protocol(), maxQueue, timeoutMillis, tally);
    }

    void attach(PushSession session, Runnable timeoutChanged) {
        this.session = session;
        this.timeoutChanged = timeoutChanged;
    }

    IdlePolicy idle() {
        return lifecycle.idle();
    }

    @Override
    public Upgrade protocol() {
        return framing.protocol();
    }

    @Override
    public boolean send(byte[] data, boolean text) {
        int length = data.length;
        synchronized (this) {
            switch (lifecycle.admit(length, !channel.isWritable())) {
                case NOT_OPEN -> {
                    return false;
                }
                case OVER_LIMIT -> {
                    PushClose refusal = lifecycle.closeReason();
                    closing(() -> framing.close(channel, refusal.code(), refusal.reason()));
                    return false;
                }
                case ACCEPTED -> { }
            }
            channel.writeAndFlush(framing.message(SharedPayload.of(channel, data), text)).addListener(f -> written(length));
        }
        return true;
    }

    private void written(int length) {
        if (lifecycle.written(length)) {
            session.drained();
        }
    }

    /** Writes a keep-alive (ping or comment) unless closing; called on the event loop. */
    void keepAlive() {
        synchronized (this) {
            if (lifecycle.isOpen()) {
                channel.writeAndFlush(framing.keepAlive());
            }
        }
    }

    @Override
    public void close() {
        closeWith(PushClose.DONE);
    }

    @Override
    public void shutdown() {
        session.shutdown(() -> closeWith(PushClose.SHUTDOWN));
    }

    /**
     * Sends the close (after anything queued) and stops taking writes. A WebSocket waits for
     * the client's close frame, up to {@link IdlePolicy#closeWaitMillis}; an SSE stream just ends.
     */
    void closeWith(PushClose close) {
        synchronized (this) {
            if (lifecycle.close(close)) {
                closing(() -> framing.close(channel, close.code(), close.reason()));
            }
        }
    }

    /**
     * Ends a connection the peer broke, or the server could not serve: the close frame, then
     * {@link PushFraming#fail}'s end of our half; what the peer still sends is dropped until it
     * closes, at most for {@link IdlePolicy#closeWaitMillis}.
     */
    void fail(PushClose close) {
        synchronized (this) {
            if (lifecycle.close(close)) {
                closing(() -> framing.fail(channel, close.code(), close.reason()));
            }
        }
    }

    /** The lifecycle is closing: queues the last write, then the channel's close after the close wait. */
    private synchronized void closing(Runnable lastWrite) {
        if (!channel.isActive()) {
            return;
        }
        // A task even on the event loop: every write accepted before this one has queued
        // its own task already (under this lock), so the close goes out after all of them.
        channel.eventLoop().execute(lastWrite);
        channel.eventLoop().schedule(() -> channel.close(), closeWaitMillis(), TimeUnit.MILLISECONDS);
    }

    /** The peer's close frame arrived: answer it (unless we began) and close the channel. */
    void peerClosed(int code) {
        synchronized (this) {
            if (lifecycle.peerClosing()) {
                channel.eventLoop().execute(
                    () -> framing.close(channel, code, "").addListener(ChannelFutureListener.CLOSE));
                return;
            }
        }
        channel.eventLoop().execute(channel::close); // after our own close frame's task
    }

    /** The channel closed: runs once, whatever closed it. */
    boolean ended() {
        return lifecycle.ended();
    }

    @Override
    public boolean isOpen() {
        return lifecycle.isOpen();
    }

    @Override
    public int pending() {
        return lifecycle.pending();
    }

    long queuedBytes() {
        return lifecycle.queuedBytes();
    }

    @Override
    public long timeoutMillis() {
        return lifecycle.idle().timeoutMillis();
    }

    @Override
    public void timeoutMillis(long millis) {
        lifecycle.idle().timeoutMillis(millis);
        channel.eventLoop().execute(timeoutChanged);
    }

    /** The channel's event loop: a send from there writes without a task hand-off. */
    @Override
    public Executor writer() {
        return channel.eventLoop();
    }

    @Override
    public void schedule(Runnable task) {
        session.run(task);
    }

    /** How long a closing WebSocket waits for the client's close frame before dropping it. */
    long closeWaitMillis() {
        return lifecycle.idle().closeWaitMillis();
    }
}
