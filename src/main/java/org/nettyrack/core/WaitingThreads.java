package org.nettyrack.core;

/**
 * Decides how many threads the {@link WorkerPool} may run, between its maximum and that plus
 * a number of extra threads for work that waits. A request that spends its time on database
 * round trips (or another service) holds a thread but hardly a core: with every thread busy,
 * requests waiting in the queue and the CPU with room to spare, one more thread serves one
 * more of them; a pool sized for CPU-bound work (a few threads beyond the cores, so that the
 * JIT's compiler threads get the cores while warming up) would leave the cores idle.
 *
 * <p>The pool asks {@link #next} at a fixed interval with what it sees and the CPU use since
 * the last time; the limit moves one thread a step:
 * <ul>
 *   <li><b>grow</b>: requests queued, every allowed thread busy, the CPU below
 *       {@link #GROW_BELOW}: one more, up to max + extra;</li>
 *   <li><b>shrink</b>: the CPU above {@link #SHRINK_ABOVE} (the extra threads now compete for
 *       the cores), or nothing queued for {@link #QUIET_STEPS} steps: one less, down to max.</li>
 * </ul>
 * CPU-bound work (a Rails page, a warming-up JIT) keeps the CPU busy, so its pool stays at max.
 * Not thread-safe: one caller, the pool's timer.
 */
public final class WaitingThreads {
    /** Machine CPU use (0-1) under which a queue means waiting, not computing. */
    static final double GROW_BELOW = 0.80;
    /** Machine CPU use above which extra threads only add contention. */
    static final double SHRINK_ABOVE = 0.95;
    /** Steps with nothing queued before an extra thread is let go. */
    static final int QUIET_STEPS = 20;

    private final int max;
    private final int ceiling;
    private int limit;
    private int quiet;

    /** max: the pool's configured maximum; extra: threads it may add beyond it (0: never). */
    public WaitingThreads(int max, int extra) {
        this.max = max;
        this.ceiling = max + Math.max(0, extra);
        this.limit = max;
    }

    /** Whether the limit can ever move. */
    public boolean active() {
        return ceiling > max;
    }

    /**
     * The limit for the next interval.
     *
     * @param busy threads running a request now
     * @param queued requests waiting for a thread now
     * @param cpu the machine's CPU use since the last step, 0-1; negative when unknown (the
     *     limit then stays where it is)
     */
    public int next(int busy, int queued, double cpu) {
        quiet = queued > 0 ? 0 : quiet + 1;
        if (cpu < 0) {
            return limit;
        }
        if (queued > 0 && busy >= limit && cpu < GROW_BELOW && limit < ceiling) {
            limit++;
        } else if (limit > max && (cpu > SHRINK_ABOVE || quiet >= QUIET_STEPS)) {
            limit--;
            quiet = 0;
        }
        return limit;
    }

    public int limit() {
        return limit;
    }

    /** The pool's configured maximum: the lowest the limit goes. */
    public int max() {
        return max;
    }
}
