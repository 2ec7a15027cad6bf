package org.nettyrack.core;

import java.lang.management.ManagementFactory;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.DoubleSupplier;

/**
 * The threads the application runs on: between min and max threads, growing to max before
 * anything waits, then a FIFO queue of waiting requests, bounded for requests. FIFO across connections is
 * what makes the server fair: a keep-alive connection's next request queues behind everyone
 * else's. {@link #submit} says no (the transport answers 503) when the queue is full.
 *
 * <p>The grow-or-queue decision (Tomcat's trick) reads two counters kept here, tasks submitted
 * and threads alive, rather than the executor's own counts, which take its main lock; a third,
 * tasks running, is for {@link #load()}.
 *
 * <p>With extra threads, a timer asks {@link WaitingThreads} every {@link #STEP_MILLIS} ms how
 * many threads may run, from the load and the machine's CPU use: past the maximum while
 * requests queue on threads that wait rather than compute.
 *
 * <p>{@link #renewThreads} replaces every thread, each once it has finished its task (Tomcat
 * renews its threads after a web app stops, for the same reason): a JRuby runtime that was
 * replaced leaves its per-thread state on each thread that ran it, in a ThreadLocal that only
 * that thread can clear or its end drops.
 */
public final class WorkerPool implements Workers {
    /** How often the limit of a pool with extra threads is reconsidered. */
    static final long STEP_MILLIS = 250;

    private final ThreadPoolExecutor executor;
    private final AtomicInteger submitted = new AtomicInteger();
    private final AtomicInteger alive = new AtomicInteger();
    private final AtomicInteger running = new AtomicInteger();
    private final int queueSize;
    private final int minThreads;
    private final WaitingThreads waiting;
    private final ScheduledExecutorService sizer;
    private final AtomicInteger threadGeneration = new AtomicInteger();

    /** How busy the pool is at one moment: threads running a task, alive, at most; tasks waiting. */
    public record Load(int busy, int threads, int maxThreads, int queued) {
    }

    public WorkerPool(int minThreads, int maxThreads, int queueSize) {
        this(minThreads, maxThreads, queueSize, () -> { });
    }

    /** threadStart: run first on each new worker thread (e.g. {@link ThreadNice#apply}). */
    public WorkerPool(int minThreads, int maxThreads, int queueSize, Runnable threadStart) {
        this(minThreads, maxThreads, 0, queueSize, threadStart);
    }

    /** extraThreads: how many threads may run beyond maxThreads while requests wait on waiting threads. */
    public WorkerPool(int minThreads, int maxThreads, int extraThreads, int queueSize, Runnable threadStart) {
        this(minThreads, maxThreads, extraThreads, queueSize, threadStart, WorkerPool::machineCpu);
    }

    /** cpu: the machine's CPU use since it was last asked (0-1, negative when unknown); null: no timer (tests call {@link #resize}). */
    WorkerPool(int minThreads, int maxThreads, int extraThreads, int queueSize, Runnable threadStart, DoubleSupplier cpu) {
        this.queueSize = Math.max(1, queueSize);
        this.minThreads = minThreads;
        this.waiting = new WaitingThreads(maxThreads, extraThreads);
        GrowFirstQueue queue = new GrowFirstQueue();
        this.executor = new ThreadPoolExecutor(minThreads, maxThreads, 60, TimeUnit.SECONDS, queue,
            new NamedThreads(alive, threadStart, threadGeneration), (task, pool) -> {
                if (pool.isShutdown() || !queue.force(task)) { // unbounded: refuses only when stopped
                    throw new RejectedExecutionException("worker queue full");
                }
            });
        executor.prestartAllCoreThreads();
        this.sizer = waiting.active() && cpu != null ? startSizer(cpu) : null;
    }

    private ScheduledExecutorService startSizer(DoubleSupplier cpu) {
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread t = new Thread(task, "nettyrack-pool-sizer");
            t.setDaemon(true);
            return t;
        });
        cpu.getAsDouble(); // the first reading starts the interval the next one measures
        timer.scheduleWithFixedDelay(() -> resize(cpu.getAsDouble()), STEP_MILLIS, STEP_MILLIS, TimeUnit.MILLISECONDS);
        return timer;
    }

    /**
     * One step of {@link WaitingThreads}: the executor's limit follows its answer. A raised limit
     * starts its thread at once on the queue's oldest request (as core threads do), so nothing
     * jumps the queue; back at the maximum the pool's own minimum is restored.
     */
    void resize(double cpu) {
        int before = waiting.limit();
        int limit = waiting.next(running.get(), executor.getQueue().size(), cpu);
        if (limit > before) {
            executor.setMaximumPoolSize(limit);
            executor.setCorePoolSize(limit);
        } else if (limit < before) {
            executor.setCorePoolSize(limit > waiting.max() ? limit : minThreads);
            executor.setMaximumPoolSize(limit);
        }
    }

    /** The machine's CPU use since the last call (the JDK's reading; a container's where it runs in one). */
    private static double machineCpu() {
        return ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
            ? os.getCpuLoad() : -1;
    }

    /** Runs the task on a worker, or returns false when the queue is full or the pool stopped. */
    @Override
    public boolean submit(Runnable task) {
        if (!reserve()) {
            return false;
        }
        try {
            hand(task);
            return true;
        } catch (RejectedExecutionException e) {
            return false;
        }
    }

    /**
     * Counts a task in, unless every thread the pool may run has one and the queue is full:
     * one atomic step, so two requests arriving together cannot both take the last place (a
     * look at the queue's size, then a put, let both in).
     */
    private boolean reserve() {
        while (true) {
            int now = submitted.get();
            if (now >= executor.getMaximumPoolSize() + queueSize) {
                return false;
            }
            if (submitted.compareAndSet(now, now + 1)) {
                return true;
            }
        }
    }

    /** Runs the task on a worker, queueing past the request limit; refused only once stopped. */
    @Override
    public void execute(Runnable task) {
        submitted.incrementAndGet();
        hand(task);
    }

    /** Gives a task already counted in {@code submitted} to the executor. */
    private void hand(Runnable task) {
        try {
            executor.execute(() -> {
                running.incrementAndGet();
                try {
                    task.run();
                } finally {
                    running.decrementAndGet();
                    submitted.decrementAndGet();
                }
                if (((Worker) Thread.currentThread()).generation != threadGeneration.get()) {
                    throw Worker.RENEWED; // the executor starts another thread in this one's place
                }
            });
        } catch (RejectedExecutionException e) {
            submitted.decrementAndGet();
            throw e;
        }
    }

    /**
     * Replaces every thread alive now with a new one, each as soon as it has finished the task
     * it runs or, when idle, the next one: idle threads get one task that does nothing.
     */
    public void renewThreads() {
        threadGeneration.incrementAndGet();
        for (int i = alive.get(); i > 0; i--) {
            try {
                execute(() -> { });
            } catch (RejectedExecutionException stopped) {
                return;
            }
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
        if (sizer != null) {
            sizer.shutdownNow();
            sizer.awaitTermination(timeoutMillis, TimeUnit.MILLISECONDS); // gone when this returns, as containers check
        }
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

    /** A worker thread, and the {@link #renewThreads} generation it was started in. */
    private static final class Worker extends Thread {
        /** Ends a renewed thread's loop in the executor; never reported. */
        static final RuntimeException RENEWED = new RuntimeException("worker thread renewed", null, false, false) {
            private static final long serialVersionUID = 1L;
        };

        final int generation;

        Worker(Runnable body, String name, int generation) {
            super(body, name);
            this.generation = generation;
        }
    }

    private static final class NamedThreads implements ThreadFactory {
        private final AtomicInteger count = new AtomicInteger();
        private final AtomicInteger alive;
        private final Runnable threadStart;
        private final AtomicInteger generation;

        NamedThreads(AtomicInteger alive, Runnable threadStart, AtomicInteger generation) {
            this.alive = alive;
            this.threadStart = threadStart;
            this.generation = generation;
        }

        @Override
        public Thread newThread(Runnable r) {
            alive.incrementAndGet();
            Thread t = new Worker(() -> {
                try {
                    threadStart.run();
                    r.run();
                } catch (RuntimeException e) {
                    if (e != Worker.RENEWED) {
                        throw e;
                    }
                } finally {
                    alive.decrementAndGet();
                }
            }, "nettyrack-worker-" + count.incrementAndGet(), generation.get());
            t.setDaemon(true);
            return t;
        }
    }
}
