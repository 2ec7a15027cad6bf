package org.nettyrack.core;

/** Where transports send requests to run; {@link WorkerPool} is the real one. */
@FunctionalInterface
public interface Workers {
    /** Runs the task on some worker; false when it cannot be taken now (the caller answers 503). */
    boolean submit(Runnable task);

    /**
     * Runs a task that must not be refused: push-connection callbacks, of which each
     * connection has at most one in the pool at a time, so their number is bounded by the
     * connections. Throws {@link java.util.concurrent.RejectedExecutionException} only once
     * the workers have stopped. The default suits a {@link #submit} that never refuses;
     * {@link WorkerPool}, whose submit is bounded, overrides it.
     */
    default void execute(Runnable task) {
        if (!submit(task)) {
            throw new java.util.concurrent.RejectedExecutionException("workers refused a push task");
        }
    }
}
