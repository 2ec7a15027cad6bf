package org.nettyrack.servlet;

import jakarta.websocket.CloseReason;
import jakarta.websocket.SendHandler;
import jakarta.websocket.SendResult;
import jakarta.websocket.Session;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import org.nettyrack.core.PushConnection;
import org.nettyrack.core.Upgrade;
import org.nettyrack.core.push.IdlePolicy;
import org.nettyrack.core.push.PushClose;
import org.nettyrack.core.push.PushLifecycle;
import org.nettyrack.core.push.PushSession;
import org.nettyrack.core.push.SendBacklog;

/**
 * The core's {@link PushConnection} on a Jakarta WebSocket {@link Session}: the container's
 * side of the core's {@link PushLifecycle}, which says whether a write, a ping or the close
 * may go out; this class only queues and sends. Containers allow
 * one async send in flight per connection (Tomcat throws otherwise), so writes queue here and
 * each send's completion starts the next: app write → {@link SendBacklog#admit} (past
 * {@code max-push-queue}: refused, queue dropped, closed 1008) → queue → {@code sendText} /
 * {@code sendBinary} → completion → {@link SendBacklog#written} ({@code on_drained} when due) →
 * the next. A close waits for the send in flight, then sends its close frame. Idle time is
 * the lifecycle's {@link IdlePolicy}, run by an {@link IdleTimer}: a ping after a quiet or silent
 * timeout, a close with 1001 for a client silent through a ping and another timeout; the
 * container's own idle timeout stays behind as a last resort (three timeouts).
 */
final class WebSocketConnection implements PushConnection, IdleTimer.Target {
    private static final ByteBuffer PING = ByteBuffer.allocate(0);

    private record Frame(byte[] data, boolean text) {
    }

    private final Session session;
    private final PushLifecycle lifecycle;
    private final IdlePolicy idle;
    private final IdleTimer timer;
    private final PushConnections pushes;
    private final ArrayDeque<Frame> queue = new ArrayDeque<>();
    private final SendHandler sent = this::sent;
    private PushSession callbacks;
    private Frame inFlight; // guarded by this, as is the queue

    WebSocketConnection(Session session, PushConnections pushes, long maxPushQueue, long timeoutMillis) {
        this.session = session;
        this.pushes = pushes;
        this.lifecycle = new PushLifecycle(Upgrade.WEBSOCKET, maxPushQueue, timeoutMillis, pushes.counters);
        this.idle = lifecycle.idle();
        this.timer = new IdleTimer(pushes.timer, idle, this);
    }

    void startTimers() {
        session.setMaxIdleTimeout(3 * idle.timeoutMillis());
        timer.start();
    }

    /** Something arrived from the client. */
    void heard() {
        timer.read();
    }

    void callbacks(PushSession callbacks) {
        this.callbacks = callbacks;
    }

    @Override
    public void shutdown() {
        PushSession session = callbacks;
        if (session != null) {
            session.shutdown(() -> closeWith(PushClose.SHUTDOWN));
        }
    }

    /** The container reported the connection closed. */
    void ended() {
        lifecycle.ended();
        timer.stop();
    }

    /**
     * A ping, unless a send is in flight (traffic already) or the connection is closing. The
     * API's ping is a blocking send: it runs on a worker, not on the timer thread.
     */
    @Override
    public void keepAlive() {
        synchronized (this) {
            if (inFlight != null || !lifecycle.isOpen()) {
                return;
            }
        }
        try {
            pushes.workers.execute(() -> {
                try {
                    session.getAsyncRemote().sendPing(PING.duplicate());
                } catch (IOException | RuntimeException e) {
                    lifecycle.lost(); // the container reports the close
                }
            });
        } catch (java.util.concurrent.RejectedExecutionException stopping) {
            // the door is stopping, and its connections with it
        }
    }

    @Override
    public void idleClose() {
        closeWith(PushClose.IDLE);
    }

    @Override
    public Upgrade protocol() {
        return Upgrade.WEBSOCKET;
    }

    @Override
    public boolean send(byte[] data, boolean text) {
        Frame frame = new Frame(data, text);
        synchronized (this) {
            switch (lifecycle.admit(data.length, inFlight != null)) {
                case NOT_OPEN -> {
                    return false;
                }
                case OVER_LIMIT -> {
                    queue.clear();
                    if (inFlight == null) {
                        closeNow();
                    }
                    return false;
                }
                case ACCEPTED -> { }
            }
            if (inFlight != null) {
                queue.add(frame);
                return true;
            }
            inFlight = frame;
        }
        transmit(frame);
        return true;
    }

    @Override
    public void close() {
        closeWith(PushClose.DONE);
    }

    /** Closes with {@code reason} once the send in flight is done; queued writes still go first. */
    void closeWith(PushClose reason) {
        synchronized (this) {
            if (!lifecycle.close(reason)) {
                return;
            }
            if (inFlight != null) {
                return; // sent() closes once the queue is empty
            }
        }
        closeNow();
    }

    @Override
    public boolean isOpen() {
        synchronized (this) {
            return lifecycle.isOpen() && session.isOpen();
        }
    }

    @Override
    public int pending() {
        return isOpen() ? lifecycle.pending() : -1;
    }

    @Override
    public long timeoutMillis() {
        return idle.timeoutMillis();
    }

    @Override
    public void timeoutMillis(long millis) {
        idle.timeoutMillis(millis);
        session.setMaxIdleTimeout(3 * idle.timeoutMillis());
        timer.start();
    }

    @Override
    public void schedule(Runnable task) {
        callbacks.run(task);
    }

    private void transmit(Frame frame) {
        timer.wrote();
        try {
            if (frame.text()) {
                session.getAsyncRemote().sendText(new String(frame.data(), StandardCharsets.UTF_8), sent);
            } else {
                session.getAsyncRemote().sendBinary(ByteBuffer.wrap(frame.data()), sent);
            }
        } catch (RuntimeException e) {
            sent(new SendResult(e));
        }
    }

    private void sent(SendResult result) {
        Frame next;
        boolean drained;
        boolean close;
        synchronized (this) {
            drained = lifecycle.written(inFlight.data().length);
            if (!result.isOK()) {
                lifecycle.lost();
                queue.clear();
            }
            next = queue.poll();
            inFlight = next;
            close = next == null && lifecycle.state() == PushLifecycle.State.CLOSING;
        }
        if (drained && callbacks != null) {
            callbacks.drained();
        }
        if (next != null) {
            transmit(next);
        } else if (close) {
            closeNow();
        }
    }

    private void closeNow() {
        PushClose reason;
        synchronized (this) {
            if (!lifecycle.sendingClose()) {
                return;
            }
            reason = lifecycle.closeReason();
        }
        try {
            session.close(new CloseReason(CloseReason.CloseCodes.getCloseCode(reason.code()), reason.reason()));
        } catch (IOException | RuntimeException e) {
            lifecycle.lost(); // the connection is gone already; the container reports the close
        }
    }
}
