package org.nettyrack.core.ops;

import java.util.Locale;

/**
 * Where one server is in its life, for whoever asks: the control endpoint's {@code GET /ready}
 * (ready only while serving), {@code GET /health} and {@code GET /stats}, and the launcher's
 * notifications to systemd. The phases only go forward:
 * <pre>
 * BOOTING → WARMING (with a warm-up) → SERVING → DRAINING
 * </pre>
 * Beside the phase, the hot restart this process started last, in words ({@link #restart}):
 * "in progress", or why it failed; a successful one ends in DRAINING. And the last reload of
 * the application inside this process ({@link #reload}), in words, and whether it is under way.
 */
public final class Lifecycle {
    public enum Phase {
        /** Listeners bound (or taken over), the application loading: nothing accepted yet. */
        BOOTING,
        /** The warm-up's requests run through the application: nothing accepted yet. */
        WARMING,
        /** Accepting connections. */
        SERVING,
        /** Stopped accepting; in-flight requests finishing. */
        DRAINING;

        /** The name in the control endpoint's JSON ("serving"). */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private volatile Phase phase = Phase.BOOTING;
    private volatile String restart;
    private String reload; // guarded by this
    private boolean reloadUnderWay; // guarded by this
    private final java.util.concurrent.atomic.AtomicLong restartsStarted = new java.util.concurrent.atomic.AtomicLong();
    private final java.util.concurrent.atomic.AtomicLong restartsFailed = new java.util.concurrent.atomic.AtomicLong();
    private long reloadsDone; // guarded by this
    private long reloadsFailed; // guarded by this

    public Phase phase() {
        return phase;
    }

    /** Moves on to {@code next}; a phase already passed stays passed. */
    public synchronized void enter(Phase next) {
        if (next.compareTo(phase) > 0) {
            phase = next;
        }
    }

    /** Whether a load balancer should send traffic here: serving, not booting, warming or draining. */
    public boolean ready() {
        return phase == Phase.SERVING;
    }

    /** The last hot restart this process started, in words; null when none did. */
    public String restart() {
        return restart;
    }

    public void restart(String status) {
        restart = status;
    }

    /** A hot restart began (a new process was started): counted for the metrics. */
    public void restartStarted(String status) {
        restart = status;
        restartsStarted.incrementAndGet();
    }

    /** A hot restart failed (the new process did not take over): counted for the metrics. */
    public void restartFailed(String status) {
        restart = status;
        restartsFailed.incrementAndGet();
    }

    public long restartsStarted() {
        return restartsStarted.get();
    }

    public long restartsFailed() {
        return restartsFailed.get();
    }

    /** The last reload of the application, in words ("canary: 25 % of requests", "done: ..."); null when none. */
    public synchronized String reload() {
        return reload;
    }

    public synchronized void reload(String status, boolean underWay) {
        reload = status;
        reloadUnderWay = underWay;
    }

    /** A reload ended: the new code serves, or (failed) the old code serves on. Counted for the metrics. */
    public synchronized void reloadEnded(String status, boolean failed) {
        reload(status, false);
        if (failed) {
            reloadsFailed++;
        } else {
            reloadsDone++;
        }
    }

    public synchronized long reloadsDone() {
        return reloadsDone;
    }

    public synchronized long reloadsFailed() {
        return reloadsFailed;
    }

    /** Marks a reload requested and returns null; or, while one is under way, says so and marks nothing. */
    public synchronized String askReload() {
        if (reloadUnderWay) {
            return "a reload is under way already (" + reload + ")";
        }
        reload("requested", true);
        return null;
    }
}
