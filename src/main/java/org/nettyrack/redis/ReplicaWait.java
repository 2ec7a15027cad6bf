package org.nettyrack.redis;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * With a history behind Sentinel, a batch counts as sent only once a replica has it too (a
 * WAIT after the batch): Redis replicates asynchronously, and a message the master confirmed
 * but had not passed on when it died would be missing from the new master's history, so no
 * client could ever get it. A batch whose WAIT did not answer goes again ({@link Writer}).
 * The wait is half the engine's command timeout (1 s by default), so that a replica on a busy
 * machine has time (at 100 ms one under a test suite's load fell behind, and the newest
 * messages were lost in the failover) and the reply still comes before the read times out.
 * When WAIT times out while the master still has a replica connected (one slow under load),
 * the writer asks again, for up to {@link #PAUSE_MILLIS} in all. When no replica is connected,
 * or one stays silent that long, the writer stops waiting for a while rather than slowing
 * every batch, and says so once.
 */
final class ReplicaWait {
    static final long PAUSE_MILLIS = 5_000;

    private final LinkStatus status;
    private final LongSupplier clock;
    private final long waitMillis;
    private final byte[][] command;
    private final int maxAsks;
    private long pausedUntil;
    private boolean paused;
    private int asked; // WAITs that timed out for the current batch

    /** timeoutMillis: the engine's command timeout; WAIT waits half of it. */
    ReplicaWait(LinkStatus status, int timeoutMillis) {
        this(status, timeoutMillis, System::nanoTime);
    }

    ReplicaWait(LinkStatus status, int timeoutMillis, LongSupplier clock) {
        this.status = status;
        this.clock = clock;
        this.waitMillis = Math.max(1, timeoutMillis / 2);
        this.command = new byte[][] {bytes("1"), bytes(Long.toString(waitMillis))};
        this.maxAsks = (int) Math.max(1, PAUSE_MILLIS / waitMillis);
    }

    /** What the writer does once WAIT answered. */
    enum Next {
        /** The batch is confirmed (a replica has it, or the waiting paused): go on. */
        DONE,
        /** A replica is connected but has not acknowledged yet: send WAIT again. */
        ASK_AGAIN
    }

    /** Whether this batch should wait for a replica. */
    boolean due() {
        return !paused || clock.getAsLong() - pausedUntil >= 0;
    }

    /** WAIT's arguments: one replica, at most half the command timeout. */
    byte[][] arguments() {
        return command;
    }

    /**
     * WAIT's answer (how many replicas have the batch) and, when none has it, how many
     * replicas the master has connected now (its ROLE).
     */
    Next answered(long replicas, int connected) {
        if (replicas > 0) {
            asked = 0;
            if (paused) {
                paused = false;
                status.log("a replica has the kept messages again");
            }
            return Next.DONE;
        }
        if (connected > 0 && ++asked < maxAsks) {
            return Next.ASK_AGAIN;
        }
        asked = 0;
        if (!paused) {
            status.log("no replica acknowledged kept messages within " + (connected > 0 ? PAUSE_MILLIS : waitMillis)
                + " ms; until one does, a failover may lose the newest");
        }
        paused = true;
        pausedUntil = clock.getAsLong() + TimeUnit.MILLISECONDS.toNanos(PAUSE_MILLIS);
        return Next.DONE;
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
