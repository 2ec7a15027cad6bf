package org.nettyrack.servlet;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.nettyrack.core.PushConnection;
import org.nettyrack.core.Upgrade;
import org.nettyrack.core.push.IdlePolicy;
import org.nettyrack.core.push.PushClose;
import org.nettyrack.core.push.PushLifecycle;
import org.nettyrack.core.push.PushSession;
import org.nettyrack.core.push.SendBacklog;
import org.nettyrack.core.push.SseEvent;

/**
 * The core's {@link PushConnection} on an async servlet response: one Server-Sent Events
 * stream, the container's side of the core's {@link PushLifecycle}, which says whether a
 * write, a keep-alive or the end may go out; this class only moves bytes. The response never blocks a thread: writes queue here and go out through the
 * container's non-blocking output ({@link WriteListener}) whenever it is ready: app write →
 * {@link SendBacklog#admit} (past {@code max-push-queue}: refused, the queue dropped, the
 * stream ended) → queue → {@code isReady}/{@code write}/{@code flush}, from the writing thread
 * or from {@link #onWritePossible} → {@link SendBacklog#written} ({@code on_drained} when
 * due). Keep-alive comments come from the connection's {@link IdleTimer}. The stream ends with
 * {@link AsyncContext#complete} once the queue is out, or after the policy's close wait when a
 * client does not read it; the container's {@link AsyncListener} events and write failures
 * tell that the client went, and {@code on_close} follows, once.
 */
final class EventStreamConnection implements PushConnection, WriteListener, AsyncListener, IdleTimer.Target,
    PushConnections.Open {
    private final AsyncContext async;
    private final ServletOutputStream out;
    private final PushConnections pushes;
    private final PushLifecycle lifecycle;
    private final IdlePolicy idle;
    private final IdleTimer timer;
    private final ArrayDeque<byte[]> queue = new ArrayDeque<>();
    private PushSession session;
    private boolean started; // guarded by this, as are the four below
    private boolean waiting;
    private boolean unflushed;
    private boolean keepAliveDue;
    private boolean completed;

    EventStreamConnection(AsyncContext async, ServletOutputStream out, PushConnections pushes, long maxQueue,
                          long timeoutMillis) {
        this.async = async;
        this.out = out;
        this.pushes = pushes;
        this.lifecycle = new PushLifecycle(Upgrade.SSE, maxQueue, timeoutMillis, pushes.counters);
        this.idle = lifecycle.idle();
        this.timer = new IdleTimer(pushes.timer, idle, this);
    }

    void attach(PushSession session) {
        this.session = session;
    }

    @Override
    public Upgrade protocol() {
        return Upgrade.SSE;
    }

    @Override
    public boolean send(byte[] data, boolean text) {
        synchronized (this) {
            switch (lifecycle.admit(data.length, waiting)) {
                case NOT_OPEN -> {
                    return false;
                }
                case OVER_LIMIT -> {
                    queue.clear();
                    giveUpLater();
                    return false;
                }
                case ACCEPTED -> queue.add(data);
            }
        }
        pump();
        return true;
    }

    @Override
    public void close() {
        synchronized (this) {
            if (!lifecycle.close(PushClose.DONE)) {
                return;
            }
            giveUpLater();
        }
        pump();
    }

    /** Closing: the stream completes once the queue is out, or after the close wait. */
    private void giveUpLater() {
        try {
            pushes.timer.schedule(this::giveUp, idle.closeWaitMillis(), TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException stopping) {
            // the door is stopping: its close ends every connection anyway
        }
    }

    @Override
    public void shutdown() {
        session.shutdown(this::close);
    }

    @Override
    public void keepAlive() {
        synchronized (this) {
            if (!lifecycle.isOpen() || waiting || !queue.isEmpty()) {
                return; // a stream with data on its way is not idle
            }
            keepAliveDue = true;
        }
        pump();
    }

    @Override
    public void idleClose() {
        close(); // SSE clients send nothing, so the policy never asks this
    }

    @Override
    public void onWritePossible() {
        boolean first;
        synchronized (this) {
            first = !started;
            started = true;
            unflushed |= first; // the head goes out now, before any event
        }
        pump();
        if (first) {
            timer.start();
            session.opened();
        }
    }

    /** Hands the container what it will take now; called by any thread, never blocks. */
    private synchronized void pump() {
        if (!started || completed) {
            return;
        }
        try {
            while (true) {
                if (!out.isReady()) {
                    waiting = true; // onWritePossible follows
                    return;
                }
                waiting = false;
                byte[] next = keepAliveDue ? SseEvent.COMMENT : queue.poll();
                if (next != null) {
                    out.write(next);
                    unflushed = true;
                    timer.wrote();
                    if (keepAliveDue) {
                        keepAliveDue = false;
                    } else if (lifecycle.written(next.length)) {
                        session.drained();
                    }
                } else if (unflushed) {
                    unflushed = false;
                    out.flush();
                } else {
                    if (!lifecycle.isOpen()) {
                        complete();
                    }
                    return;
                }
            }
        } catch (IOException | IllegalStateException gone) {
            gone();
        }
    }

    /** The close wait is over: the stream ends even with data the client never read. */
    private void giveUp() {
        synchronized (this) {
            complete();
        }
        gone();
    }

    private void complete() {
        if (completed) {
            return;
        }
        completed = true;
        timer.stop();
        try {
            async.complete();
        } catch (IllegalStateException alreadyDone) {
            // the container ended the request first
        }
    }

    /** The stream ended, however it ended: runs once. */
    private void gone() {
        if (!lifecycle.ended()) {
            return;
        }
        timer.stop();
        synchronized (this) {
            queue.clear();
            complete();
        }
        session.closed();
        pushes.ended(this);
    }

    @Override
    public void onError(Throwable failure) {
        gone();
    }

    @Override
    public void onComplete(AsyncEvent event) {
        gone();
    }

    /**
     * There is no async timeout, so only a container that ends its async requests itself gets
     * here: Tomcat, when the web app stops, before the door hears of it. As at any stop,
     * {@code on_shutdown}, then {@code on_close}; the stream ends with this call.
     */
    @Override
    public void onTimeout(AsyncEvent event) {
        if (lifecycle.state() != PushLifecycle.State.ENDED) {
            session.shutdown();
        }
        gone();
    }

    @Override
    public void onError(AsyncEvent event) {
        gone();
    }

    @Override
    public void onStartAsync(AsyncEvent event) {
    }

    @Override
    public boolean isOpen() {
        return lifecycle.isOpen();
    }

    @Override
    public int pending() {
        return lifecycle.pending();
    }

    @Override
    public long timeoutMillis() {
        return idle.timeoutMillis();
    }

    @Override
    public void timeoutMillis(long millis) {
        idle.timeoutMillis(millis);
        timer.start();
    }

    @Override
    public void schedule(Runnable task) {
        session.run(task);
    }
}
