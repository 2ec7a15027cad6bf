package org.nettyrack.servlet;

import jakarta.websocket.CloseReason;
import jakarta.websocket.SendHandler;
import jakarta.websocket.SendResult;
import jakarta.websocket.Session;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import org.nettyrack.core.push.IdlePolicy;
import org.nettyrack.core.push.PushClose;
import org.nettyrack.core.push.PushConnection;
import org.nettyrack.core.push.PushSession;
import org.nettyrack.core.push.SendBacklog;
import org.nettyrack.core.push.Upgrade;

/**
 * The core's {@link PushConnection} on a Jakarta WebSocket {@link Session}. Containers allow
 * one async send in flight per connection (Tomcat throws otherwise), so writes queue here and
 * each send's completion starts the next: app write → {@link SendBacklog#admit} (past
 * {@code max-push-queue}: refused, queue dropped, closed 1008) → queue → {@code sendText} /
 * {@code sendBinary} → completion → {@link SendBacklog#written} ({@code on_drained} when due) →
 * the next. A close waits for the send in flight, then sends its close frame.
 */
final class WebSocketConnection implements PushConnection {
    private record Frame(byte[] data, boolean text) {
    }

    private final Session session;
    private final SendBacklog backlog;
    private final IdlePolicy idle;
    private final ArrayDeque<Frame> queue = new ArrayDeque<>();
    private final SendHandler sent = this::sent;
    private PushSession callbacks;
    private Frame inFlight; // guarded by this, as are the three below
    private PushClose closing;
    private boolean closeSent;
    private volatile boolean ended;

    WebSocketConnection(Session session, long maxPushQueue, long timeoutMillis) {
        this.session = session;
        this.backlog = new SendBacklog(maxPushQueue);
        this.idle = new IdlePolicy(Upgrade.WEBSOCKET, timeoutMillis);
    }

    void callbacks(PushSession callbacks) {
        this.callbacks = callbacks;
    }

    /** The container reported the connection closed. */
    void ended() {
        ended = true;
    }

    @Override
    public Upgrade protocol() {
        return Upgrade.WEBSOCKET;
    }

    @Override
    public boolean send(byte[] data, boolean text) {
        Frame frame = new Frame(data, text);
        synchronized (this) {
            if (closing != null || ended) {
                return false;
            }
            if (!backlog.admit(data.length, inFlight != null)) {
                queue.clear();
                closing = backlog.refusal();
                if (inFlight == null) {
                    closeNow();
                }
                return false;
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
            if (closing != null) {
                return;
            }
            closing = reason;
            if (inFlight != null) {
                return; // sent() closes once the queue is empty
            }
        }
        closeNow();
    }

    @Override
    public boolean isOpen() {
        synchronized (this) {
            return closing == null && !ended && session.isOpen();
        }
    }

    @Override
    public int pending() {
        return isOpen() ? backlog.writes() : -1;
    }

    @Override
    public long timeoutMillis() {
        return idle.timeoutMillis();
    }

    @Override
    public void timeoutMillis(long millis) {
        idle.timeoutMillis(millis);
        session.setMaxIdleTimeout(2 * idle.timeoutMillis());
    }

    @Override
    public void schedule(Runnable task) {
        callbacks.run(task);
    }

    private void transmit(Frame frame) {
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
            drained = backlog.written(inFlight.data().length);
            if (!result.isOK()) {
                ended = true;
                queue.clear();
            }
            next = queue.poll();
            inFlight = next;
            close = next == null && closing != null;
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
            if (closeSent || ended) {
                return;
            }
            closeSent = true;
            reason = closing;
        }
        try {
            session.close(new CloseReason(CloseReason.CloseCodes.getCloseCode(reason.code()), reason.reason()));
        } catch (IOException | RuntimeException e) {
            ended = true; // the connection is gone already; the container reports the close
        }
    }
}
