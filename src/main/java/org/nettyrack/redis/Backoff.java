package org.nettyrack.redis;

/**
 * Delays between reconnection attempts: the first {@code min}, each next one double the last,
 * at most {@code max}; {@link #reset} after a success starts over. One per thread, not shared.
 */
final class Backoff {
    private final long minMillis;
    private final long maxMillis;
    private long next;

    Backoff(long minMillis, long maxMillis) {
        check(minMillis, maxMillis);
        this.minMillis = minMillis;
        this.maxMillis = maxMillis;
        this.next = minMillis;
    }

    static void check(long minMillis, long maxMillis) {
        if (minMillis < 1 || maxMillis < minMillis) {
            throw new IllegalArgumentException("backoff needs 1 <= min <= max, got " + minMillis + ", " + maxMillis);
        }
    }

    /** The delay before the next attempt, in milliseconds. */
    long next() {
        long delay = next;
        next = Math.min(maxMillis, next * 2);
        return delay;
    }

    void reset() {
        next = minMillis;
    }
}
