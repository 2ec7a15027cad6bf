package org.nettyrack.core;

import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The threads the application runs on: between min and max threads, growing to max before
 * anything waits, then a FIFO queue of waiting requests, bounded for requests. FIFO across connections is
 * what makes the server fair: a keep-alive connection's next request queues behind everyone
 * else's. {@link #submit} says no (the transport answers 503) when the queue is full.
 *
 * <p>The grow-or-queue decision (Tomcat's trick) reads two counters kept here, tasks submitted
 * and threads alive, rather than the executor's own counts, which take its main lock; a third,
 * tasks running, is for {@link #load()}.
 */
public final class WorkerPool implements Workers {
    private final ThreadPoolExecutor executor;
    private final AtomicInteger submitted = new AtomicInteger();
    private final AtomicInteger alive = new AtomicInteger();
    private final AtomicInteger running = new AtomicInteger();
    private final int queueSize;

    /** How busy the pool is at one moment: threads running a task, alive, at most; tasks waiting. */
    public record Load(int busy, int threads, int maxThreads, int queued) {
    }

    public WorkerPool(int minThreads, int maxThreads, int queueSize) {
        this(minThreads, maxThreads, queueSize, () -> { });
    }

    /** threadStart: run first on each new worker thread (e.g. {@link ThreadNice#apply}). */
    public WorkerPool(int minThreads, int maxThreads, int queueSize, Runnable threadStart) {
        this.queueSize = Math.max(1, queueSize);
        GrowFirstQueue queue = new GrowFirstQueue();
        this.executor = new ThreadPoolExecutor(minThreads, maxThreads, 60, TimeUnit.SECONDS, queue,
            new NamedThreads(alive, threadStart), (task, pool) -> {
                if (pool.isShutdown() || !queue.force(task)) { // unbounded: refuses only when stopped
                    throw new RejectedExecutionException("worker queue full");
                }
            });
        executor.prestartAllCoreThreads();
    }

    /** Runs the task on a worker, or returns false when the queue is full or the pool stopped. */
    @Override
    public boolean submit(Runnable task) {
        if (executor.getQueue().size() >= queueSize) {
            return false;
        }
        try {
            execute(task);
            return true;
        } catch (RejectedExecutionException e) {
            return false;
        }
    }

    /** Runs the task on a worker, queueing past the request limit; refused only once stopped. */
    @Override
    public void execute(Runnable task) {
        submitted.incrementAndGet();
        try {
            executor.execute(() -> {
                running.incrementAndGet();
                try {
                    task.run();
                } finally {
                    running.decrementAndGet();
                    submitted.decrementAndGet();
                }
            });
        } catch (RejectedExecutionException e) {
            submitted.decrementAndGet();
            throw e;
        }
    }

    /** Tasks running or waiting. */
    public int pending() {
        return submitted.get();
    }

    /** Read without taking the executor's lock: each figure is exact, the four together nearly so. */
    public Load load() {
        return new Load(running.get(), alive.get(), executor.getMaximumPoolSize(), executor.getQueue().size());
    }

    /** Stops taking tasks and waits up to the timeout for the running ones; true if they all ended. */
    public boolean shutdown(long timeoutMillis) throws InterruptedException {
        executor.shutdown();
        boolean done = executor.awaitTermination(timeoutMillis, TimeUnit.MILLISECONDS);
        if (!done) {
            executor.shutdownNow();
        }
        return done;
    }

    /**
     * Refuses to queue while no thread is free and the pool can still grow, so the executor
     * starts a thread; at the maximum, the rejection handler queues for real via {@link #force}.
     */
    private final class GrowFirstQueue extends LinkedBlockingQueue<Runnable> {
        private static final long serialVersionUID = 1L;

        GrowFirstQueue() {
            super();
        }

        @Override
        public boolean offer(Runnable task) {
            int threads = alive.get();
            if (submitted.get() > threads && threads < executor.getMaximumPoolSize()) {
                return false;
            }
            return super.offer(task);
        }

        boolean force(Runnable task) {
            return super.offer(task);
        }
    }

    private static final class NamedThreads implements ThreadFactory {
        private final AtomicInteger count = new AtomicInteger();
        private final AtomicInteger alive;
        private final Runnable threadStart;

        NamedThreads(AtomicInteger alive, Runnable threadStart) {
            this.alive = alive;
            this.threadStart = threadStart;
        }

        @Override
        public Thread newThread(Runnable r) {
            alive.incrementAndGet();
            Thread t = new Thread(() -> {
                try {
                    threadStart.run();
                    r.run();
                } finally {
                    alive.decrementAndGet();
                }
            }, "nettyrack-worker-" + count.incrementAndGet());
            t.setDaemon(true);
            return t;
        }
    }
}
