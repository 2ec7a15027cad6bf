package org.nettyrack.servlet;

import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.nettyrack.core.push.IdlePolicy;

/**
 * The idle timers of one push connection in a container, what Netty's IdleStateHandler is
 * to the Netty door: the connection reports reads ({@link #read}) and writes
 * ({@link #wrote}); when nothing was read for the policy's read timeout, or written for its
 * write timeout, the core's {@link IdlePolicy} says what follows, and the {@link Target} does
 * it (a ping or an SSE comment; a close with 1001). Checks run on the door's one timer thread,
 * which alone touches the policy's silence; they re-arm until {@link #stop}.
 */
final class IdleTimer {
    /** What the connection does when the policy asks. */
    interface Target {
        /** A WebSocket ping, or an SSE comment; must not block the timer thread. */
        void keepAlive();

        /** Close with {@link org.nettyrack.core.push.PushClose#IDLE}. */
        void idleClose();
    }

    private final ScheduledExecutorService timer;
    private final IdlePolicy policy;
    private final Target target;
    private volatile long lastRead = System.nanoTime();
    private volatile long lastWrite = lastRead;
    private long readSeen = lastRead; // timer thread only
    private ScheduledFuture<?> readCheck; // guarded by this, as are the two below
    private ScheduledFuture<?> writeCheck;
    private boolean stopped;
    private int generation; // a restart leaves the checks already running without a successor

    IdleTimer(ScheduledExecutorService timer, IdlePolicy policy, Target target) {
        this.timer = timer;
        this.policy = policy;
        this.target = target;
    }

    /** Arms the timers for the policy's current timeouts (again after {@code client.timeout =}). */
    synchronized void start() {
        cancel();
        if (stopped) {
            return;
        }
        int g = ++generation;
        long read = policy.readTimeoutMillis();
        if (read > 0) {
            readCheck = schedule(() -> checkRead(g), read);
        }
        writeCheck = schedule(() -> checkWrite(g), policy.writeTimeoutMillis());
    }

    void read() {
        lastRead = System.nanoTime();
    }

    void wrote() {
        lastWrite = System.nanoTime();
    }

    synchronized void stop() {
        stopped = true;
        cancel();
    }

    private void checkRead(int g) {
        long read = lastRead;
        if (read != readSeen) {
            readSeen = read;
            policy.heard();
        }
        long timeout = TimeUnit.MILLISECONDS.toNanos(policy.readTimeoutMillis());
        long idle = System.nanoTime() - read;
        if (idle < timeout) {
            rearm(g, true, timeout - idle);
            return;
        }
        if (!rearm(g, true, timeout)) {
            return;
        }
        switch (policy.silent(false)) {
            case KEEP_ALIVE -> target.keepAlive();
            case CLOSE -> target.idleClose();
            case NOTHING -> { }
        }
    }

    private void checkWrite(int g) {
        long timeout = TimeUnit.MILLISECONDS.toNanos(policy.writeTimeoutMillis());
        long idle = System.nanoTime() - lastWrite;
        if (idle < timeout) {
            rearm(g, false, timeout - idle);
            return;
        }
        if (rearm(g, false, timeout) && policy.quiet() == IdlePolicy.Action.KEEP_ALIVE) {
            wrote();
            target.keepAlive();
        }
    }

    /** Schedules the next check; false when this one belongs to a stopped or restarted timer. */
    private synchronized boolean rearm(int g, boolean reading, long delayNanos) {
        if (stopped || g != generation) {
            return false;
        }
        long millis = Math.max(1, TimeUnit.NANOSECONDS.toMillis(delayNanos));
        if (reading) {
            readCheck = schedule(() -> checkRead(g), millis);
        } else {
            writeCheck = schedule(() -> checkWrite(g), millis);
        }
        return true;
    }

    private ScheduledFuture<?> schedule(Runnable check, long millis) {
        try {
            return timer.schedule(check, millis, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException stopping) {
            stopped = true; // the door is stopping, and its connections with it
            return null;
        }
    }

    private void cancel() {
        if (readCheck != null) {
            readCheck.cancel(false);
        }
        if (writeCheck != null) {
            writeCheck.cancel(false);
        }
        readCheck = null;
        writeCheck = null;
    }
}
