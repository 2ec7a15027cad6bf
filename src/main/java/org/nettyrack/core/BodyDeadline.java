package org.nettyrack.core;

/**
 * When a request body that is still arriving has taken too long (Apache's mod_reqtimeout
 * rule): the client gets {@code timeoutMillis} from the end of the request head, and every
 * {@code minRate} bytes received earn it one more second. A client sending at least
 * {@code minRate} bytes per second never runs out; one that stops, or trickles (slowloris on
 * the body), does, and gets 408. A {@code minRate} of 0 earns nothing: the whole body must
 * arrive within the timeout. One deadline per request body, used from one thread.
 */
public final class BodyDeadline {
    private final long startNanos;
    private final long timeoutNanos;
    private final long minRate;
    private long received;

    public BodyDeadline(long startNanos, long timeoutMillis, long minRate) {
        this.startNanos = startNanos;
        this.timeoutNanos = timeoutMillis * 1_000_000L;
        this.minRate = minRate;
    }

    public void received(long bytes) {
        received += bytes;
    }

    /** Nanoseconds left at {@code nowNanos}; zero or less once the deadline passed. */
    public long remainingNanos(long nowNanos) {
        long earned = minRate > 0 ? (long) Math.min(received * 1e9 / minRate, 1e17) : 0;
        return startNanos + timeoutNanos + earned - nowNanos;
    }
}
