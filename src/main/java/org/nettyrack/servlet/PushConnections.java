package org.nettyrack.servlet;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicBoolean;
import org.nettyrack.core.Upgrade;
import org.nettyrack.core.WorkerPool;
import org.nettyrack.core.config.ServerConfig;
import org.nettyrack.core.ops.ServerCounters;

/**
 * What the door's push connections (WebSockets and SSE streams) share: the workers their
 * callbacks run on, the timer their idle checks ({@link IdleTimer}) run on, and the set of
 * open connections. On undeploy ({@link #close}) it stops taking upgrades, every open
 * connection gets {@code on_shutdown} and is closed, and once they have ended (5 s at most)
 * the workers run what is queued, each {@code on_close} included, and stop (5 s more at most).
 */
final class PushConnections {
    /** An open connection, as the door's shutdown sees it. */
    interface Open {
        /** {@code on_shutdown}, then the close (1001, or the end of the stream), in callback order. */
        void shutdown();

        /** WebSocket or SSE, for the counts. */
        Upgrade protocol();
    }

    final WorkerPool workers;
    /** The door's counters: push connections open by kind, and each write (the connections' tally). */
    final ServerCounters counters;
    final ScheduledExecutorService timer;
    private final Set<Open> open = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean closed = new AtomicBoolean();

    PushConnections(ServerConfig config, ServerCounters counters) {
        this.counters = counters;
        this.workers = new WorkerPool(0, config.workers().maxThreads(), config.workers().queueSize());
        ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1, task -> {
            Thread thread = new Thread(task, "nettyrack-push-timer");
            thread.setDaemon(true);
            return thread;
        });
        timer.setRemoveOnCancelPolicy(true);
        timer.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        this.timer = timer;
    }

    /** True once the web app began to stop: accepted upgrades are then refused. */
    boolean stopping() {
        return closed.get();
    }

    void opened(Open connection) {
        if (open.add(connection)) {
            counters.pushOpened(connection.protocol());
        }
    }

    void ended(Open connection) {
        synchronized (open) {
            if (open.remove(connection)) {
                counters.pushClosed(connection.protocol());
            }
            open.notifyAll();
        }
    }

    /** Ends every open connection and stops the workers and the timer, once. */
    void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        for (Open connection : open) {
            connection.shutdown();
        }
        long deadline = System.nanoTime() + 5_000_000_000L;
        try {
            synchronized (open) {
                long left;
                while (!open.isEmpty() && (left = (deadline - System.nanoTime()) / 1_000_000L) > 0) {
                    open.wait(left);
                }
            }
            workers.shutdown(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            timer.shutdownNow();
        }
    }
}
