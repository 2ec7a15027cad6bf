package org.nettyrack.core.push;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.nettyrack.core.ErrorLog;
import org.nettyrack.core.PushConnection;
import org.nettyrack.core.PushEndpoint;
import org.nettyrack.core.Workers;

/**
 * Runs one push connection's callbacks on the worker pool: the transport reports events from
 * its I/O thread, and this class queues them and runs them on a worker, one at a time and in
 * arrival order, so an application's handler never sees two callbacks of one connection at
 * once. {@code on_close} runs exactly once and last; events after it are dropped.
 *
 * <p>At most one task per connection sits in the pool at a time; it runs a batch of events and
 * hands the worker back, so a chatty connection cannot starve the others. Incoming messages
 * the application has not yet handled are counted: {@link #message} returns false when the
 * transport should stop reading, and the {@code resume} callback runs (on a worker) once the
 * backlog has shrunk again.
 *
 * <p>A transport makes one session per upgraded connection and reports to it: {@link #opened},
 * {@link #message}, {@link #drained}, {@link #shutdown}, {@link #closed} (whatever ended the
 * connection), and {@link #run} for tasks in callback order (its {@link
 * PushConnection#schedule}). A task that throws is reported to the error log and the session
 * goes on; the endpoint reports the application's own errors itself.
 */
public final class PushSession {
    private static final int BATCH = 16;
    static final int HIGH_WATER = 64;
    static final int LOW_WATER = 16;

    private final Workers workers;
    private final PushEndpoint endpoint;
    private final PushConnection connection;
    private final Runnable resume;
    private final ErrorLog errorLog;
    private final ConcurrentLinkedQueue<Runnable> events = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean scheduled = new AtomicBoolean();
    private final AtomicBoolean closing = new AtomicBoolean();
    private final AtomicInteger unhandledMessages = new AtomicInteger();
    private final Runnable drain = this::drain;
    private volatile boolean paused;
    private boolean closed; // touched only by the one worker running a batch

    public PushSession(Workers workers, PushEndpoint endpoint, PushConnection connection, Runnable resume,
                       ErrorLog errorLog) {
        this.workers = workers;
        this.endpoint = endpoint;
        this.connection = connection;
        this.resume = resume;
        this.errorLog = errorLog;
    }

    public void opened() {
        enqueue(() -> endpoint.onOpen(connection));
    }

    /** Queues a message; false when the transport should pause reading until {@code resume}. */
    public boolean message(byte[] data, boolean text) {
        // Paused is set before the message is queued, so the worker that handles the backlog
        // is sure to see it and resume reading.
        boolean pause = unhandledMessages.incrementAndGet() >= HIGH_WATER;
        if (pause) {
            paused = true;
        }
        enqueue(() -> {
            int left = unhandledMessages.decrementAndGet();
            try {
                endpoint.onMessage(connection, data, text);
            } finally {
                if (paused && left <= LOW_WATER) {
                    paused = false;
                    resume.run();
                }
            }
        });
        return !pause;
    }

    public void drained() {
        enqueue(() -> endpoint.onDrained(connection));
    }

    public void shutdown() {
        enqueue(() -> endpoint.onShutdown(connection));
    }

    /**
     * The server, or the application runtime the connection belongs to, is going:
     * {@code on_shutdown}, then {@code close} (a close with 1001, or the end of an event
     * stream), in callback order, so that what the application writes in goodbye goes first.
     */
    public void shutdown(Runnable close) {
        shutdown();
        run(close);
    }

    /** The connection ended, however it ended: queues on_close, once. */
    public void closed() {
        if (closing.compareAndSet(false, true)) {
            enqueue(() -> {
                closed = true;
                endpoint.onClose(connection);
            });
        }
    }

    /** Runs any task in callback order (a subscription's block, for one). */
    public void run(Runnable task) {
        enqueue(task);
    }

    /** True once on_close has been queued. */
    public boolean isClosing() {
        return closing.get();
    }

    private void enqueue(Runnable event) {
        events.add(event);
        schedule();
    }

    private void schedule() {
        if (scheduled.compareAndSet(false, true)) {
            try {
                workers.execute(drain);
            } catch (java.util.concurrent.RejectedExecutionException stopped) {
                scheduled.set(false); // the workers are gone: nothing can run any more
            }
        }
    }

    private void drain() {
        try {
            for (int i = 0; i < BATCH; i++) {
                Runnable event = events.poll();
                if (event == null) {
                    break;
                }
                if (closed) {
                    continue; // after on_close nothing more reaches the application
                }
                try {
                    event.run();
                } catch (RuntimeException e) {
                    errorLog.report("push callback failed", e); // the endpoint reports the app's own errors
                }
            }
        } finally {
            scheduled.set(false);
            if (!events.isEmpty()) {
                schedule();
            }
        }
    }
}
