package org.nettyrack.core;

/** Where transports send requests to run; {@link WorkerPool} is the real one. */
@FunctionalInterface
public interface Workers {
    /** Runs the task on some worker; false when it cannot be taken now (the caller answers 503). */
    boolean submit(Runnable task);
}
