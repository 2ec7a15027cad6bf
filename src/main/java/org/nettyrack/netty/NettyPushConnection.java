package org.nettyrack.netty;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.nettyrack.core.push.PushConnection;
import org.nettyrack.core.push.PushSession;
import org.nettyrack.core.push.Upgrade;

/**
 * One upgraded connection as the application's client sees it, usable from any thread.
 * Writes go to the channel at once (Netty queues them in its outbound buffer); this class
 * counts the bytes not yet on the socket, refuses a write that would pass the queue limit and
 * closes the connection (1008), and reports {@code on_drained} when a queue that had backed up
 * behind a slow reader is empty again. A lock orders writes against the close, so no message
 * can follow a WebSocket close frame.
 *
 * <p>The framing is {@link PushFraming}'s: WebSocket frames or Server-Sent Events.
 */
final class NettyPushConnection implements PushConnection {
    /** WebSocket status codes used by the server. */
    static final int NORMAL = 1000;
    static final int GOING_AWAY = 1001;
    static final int PROTOCOL_ERROR = 1002;
    static final int INVALID_DATA = 1007;
    static final int POLICY = 1008;
    static final int TOO_BIG = 1009;
    static final int INTERNAL_ERROR = 1011;

    private final Channel channel;
    private final PushFraming framing;
    private final long maxQueue;
    private final AtomicLong queuedBytes = new AtomicLong();
    private final AtomicInteger pendingWrites = new AtomicInteger();
    private final AtomicBoolean backedUp = new AtomicBoolean();
    private final AtomicBoolean ended = new AtomicBoolean();
    private volatile boolean open = true;
    private volatile long timeoutMillis;
    private volatile PushSession session;
    private Runnable timeoutChanged = () -> { };

    NettyPushConnection(Channel channel, PushFraming framing, long maxQueue, long timeoutMillis) {
        this.channel = channel;
        this.framing = framing;
        this.maxQueue = maxQueue;
        this.timeoutMillis = timeoutMillis;
    }

    void attach(PushSession session, Runnable timeoutChanged) {
        this.session = session;
        this.timeoutChanged = timeoutChanged;
    }

    @Override
    public Upgrade protocol() {
        return framing.protocol();
    }

    @Override
    public boolean send(byte[] data, boolean text) {
        int length = data.length;
        synchronized (this) {
            if (!open) {
                return false;
            }
            long queued = queuedBytes.addAndGet(length);
            if (queued > maxQueue && queued != length) {
                queuedBytes.addAndGet(-length);
                closeWith(POLICY, "send queue over " + maxQueue + " bytes: the client is not reading");
                return false;
            }
            pendingWrites.incrementAndGet();
            if (!channel.isWritable()) {
                backedUp.set(true);
            }
            channel.writeAndFlush(framing.message(data, text)).addListener(f -> written(length));
        }
        return true;
    }

    private void written(int length) {
        pendingWrites.decrementAndGet();
        if (queuedBytes.addAndGet(-length) == 0 && backedUp.compareAndSet(true, false) && open) {
            session.drained();
        }
    }

    /** Writes a keep-alive (ping or comment) unless closing; called on the event loop. */
    void keepAlive() {
        synchronized (this) {
            if (open) {
                channel.writeAndFlush(framing.keepAlive());
            }
        }
    }

    @Override
    public void close() {
        closeWith(NORMAL, "");
    }

    /**
     * Sends the close (after anything queued) and stops taking writes. A WebSocket waits for
     * the client's close frame, up to {@link #closeWaitMillis}; an SSE stream just ends.
     */
    void closeWith(int code, String reason) {
        end(() -> framing.close(channel, code, reason));
    }

    /**
     * Ends a connection the peer broke, or the server could not serve: the close frame, then
     * {@link PushFraming#fail}'s end of our half; what the peer still sends is dropped until it
     * closes, at most for {@link #closeWaitMillis}.
     */
    void fail(int code, String reason) {
        end(() -> framing.fail(channel, code, reason));
    }

    private void end(Runnable lastWrite) {
        synchronized (this) {
            if (!open) {
                return;
            }
            open = false;
            if (!channel.isActive()) {
                return;
            }
            // A task even on the event loop: every write accepted before this one has queued
            // its own task already (under this lock), so the close goes out after all of them.
            channel.eventLoop().execute(lastWrite);
        }
        channel.eventLoop().schedule(() -> channel.close(), closeWaitMillis(), TimeUnit.MILLISECONDS);
    }

    /** The peer's close frame arrived: answer it (unless we began) and close the channel. */
    void peerClosed(int code) {
        synchronized (this) {
            boolean answer = open;
            open = false;
            if (answer) {
                channel.eventLoop().execute(
                    () -> framing.close(channel, code, "").addListener(ChannelFutureListener.CLOSE));
                return;
            }
        }
        channel.eventLoop().execute(channel::close); // after our own close frame's task
    }

    /** The channel closed: runs once, whatever closed it. */
    boolean ended() {
        open = false;
        return ended.compareAndSet(false, true);
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    @Override
    public int pending() {
        return open ? pendingWrites.get() : -1;
    }

    long queuedBytes() {
        return queuedBytes.get();
    }

    @Override
    public long timeoutMillis() {
        return timeoutMillis;
    }

    @Override
    public void timeoutMillis(long millis) {
        if (millis < 100) {
            throw new IllegalArgumentException("timeout must be at least 0.1 s, got " + millis + " ms");
        }
        timeoutMillis = millis;
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
        return Math.min(5_000, timeoutMillis);
    }
}
