package org.nettyrack.redis;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * With a history behind Sentinel, a batch counts as sent only once a replica has it too (a
 * WAIT after the batch): Redis replicates asynchronously, and a message the master confirmed
 * but had not passed on when it died would be missing from the new master's history, so no
 * client could ever get it. A batch whose WAIT did not answer goes again ({@link Writer}).
 * When no replica answers within the wait (none is up), the writer stops waiting for a while
 * rather than slowing every batch, and says so once.
 */
final class ReplicaWait {
    static final long WAIT_MILLIS = 100;
    static final long PAUSE_MILLIS = 5_000;

    private final LinkStatus status;
    private final LongSupplier clock;
    private final byte[][] command = {bytes("1"), bytes(Long.toString(WAIT_MILLIS))};
    private long pausedUntil;
    private boolean paused;

    ReplicaWait(LinkStatus status) {
        this(status, System::nanoTime);
    }

    ReplicaWait(LinkStatus status, LongSupplier clock) {
        this.status = status;
        this.clock = clock;
    }

    /** Whether this batch should wait for a replica. */
    boolean due() {
        return !paused || clock.getAsLong() - pausedUntil >= 0;
    }

    /** WAIT's arguments: one replica, at most {@link #WAIT_MILLIS}. */
    byte[][] arguments() {
        return command;
    }

    /** WAIT's answer: how many replicas have the batch. */
    void answered(long replicas) {
        if (replicas > 0) {
            if (paused) {
                paused = false;
                status.log("a replica has the kept messages again");
            }
            return;
        }
        if (!paused) {
            status.log("no replica acknowledged kept messages within " + WAIT_MILLIS
                + " ms; until one does, a failover may lose the newest");
        }
        paused = true;
        pausedUntil = clock.getAsLong() + TimeUnit.MILLISECONDS.toNanos(PAUSE_MILLIS);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
