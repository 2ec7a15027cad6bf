package org.nettyrack.core.config;

import org.nettyrack.core.ThreadNice;

/**
 * How much runs at once: the worker pool that calls the app (threads and queue), the Netty
 * door's event loops and connection cap, and the workers' nice value. Read when a door builds
 * its {@link org.nettyrack.core.WorkerPool} and its event loops.
 *
 * @param minThreads worker threads kept alive (default: one per core)
 * @param maxThreads most requests running the app at once (default: twice the cores, at least 4)
 * @param waitThreads threads the pool may run beyond maxThreads while requests queue behind
 *     threads that wait rather than compute ({@link org.nettyrack.core.WaitingThreads}; 0:
 *     never). Default: twice maxThreads when the threads are the default, else 0
 * @param queueSize requests that may wait for a worker; beyond it the server answers 503
 * @param maxConnections open connections at which accepting pauses (the CLI's
 *     --max-connections); 0: automatic, see {@link #connectionCap()}
 * @param ioThreads event-loop threads; 0 means one per core
 * @param workerNice nice value of the Netty door's worker threads (0-19; {@link ThreadNice})
 * @param setPriority how {@code workerNice} is applied (null: it is not; see {@link ThreadNice})
 */
public record WorkerSettings(int minThreads, int maxThreads, int waitThreads, int queueSize, int maxConnections,
                             int ioThreads, int workerNice, ThreadNice.SetPriority setPriority) {
    private static final int CORES = Runtime.getRuntime().availableProcessors();

    public static final WorkerSettings DEFAULTS =
        new WorkerSettings(Math.max(1, CORES), Math.max(4, 2 * CORES), defaultWaitThreads(Math.max(4, 2 * CORES)), 1024, 0,
            0, 10, null);

    /** The extra threads a pool at the default thread counts may add: twice its maximum. */
    public static int defaultWaitThreads(int maxThreads) {
        return 2 * maxThreads;
    }

    /** Files left for everything but connections (jars, logs, spooled bodies, Redis) by the default cap. */
    public static final int FILES_KEPT_FREE = 1024;

    /** {@link #maxConnections}, with 0 resolved: the open-file limit less {@link #FILES_KEPT_FREE}. */
    public int connectionCap() {
        return maxConnections > 0 ? maxConnections : defaultMaxConnections();
    }

    /**
     * The default connection cap: the open-file limit less {@link #FILES_KEPT_FREE}, so that
     * accepting pauses before the process runs out of descriptors; 10,000 where the limit is
     * unknown.
     */
    static int defaultMaxConnections() {
        java.lang.management.OperatingSystemMXBean os = java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.UnixOperatingSystemMXBean unix) {
            long files = unix.getMaxFileDescriptorCount();
            return (int) Math.max(64, Math.min(Integer.MAX_VALUE, files - FILES_KEPT_FREE));
        }
        return 10_000;
    }

    public void check() {
        Check.that(minThreads >= 0, "minimum threads must be 0 or more, got " + minThreads);
        Check.that(maxThreads >= 1, "maximum threads must be 1 or more, got " + maxThreads);
        Check.that(minThreads <= maxThreads,
            "minimum threads (" + minThreads + ") exceed the maximum (" + maxThreads + ")");
        Check.that(waitThreads >= 0, "wait threads must be 0 or more, got " + waitThreads);
        Check.that(queueSize >= 0, "queue size must be 0 or more, got " + queueSize);
        Check.that(maxConnections >= 0, "max connections must be 0 (automatic) or more, got " + maxConnections);
        Check.that(ioThreads >= 0, "io threads must be 0 or more, got " + ioThreads);
        Check.that(workerNice >= 0 && workerNice <= 19, "worker nice must be 0 to 19, got " + workerNice);
    }
}
