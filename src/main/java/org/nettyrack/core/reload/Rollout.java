package org.nettyrack.core.reload;

import java.util.function.Consumer;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;
import org.nettyrack.core.RackRequest;
import org.nettyrack.core.ResponseSink;

/**
 * One version of the application taking over from another behind an {@link AppSwitch}, as
 * its {@link Canary} says: each new request goes to the new version with the canary's share
 * of the moment, else to the old one, and both are counted. It ends once, in an
 * {@link Outcome}: {@code SWITCHED} when the canary is over ({@link Canary#over}), {@code ROLLED_BACK} as
 * soon as the new version's answers fail it. Then the switch serves the winner alone, and
 * the loser may be released once {@link Outcome#awaitIdle} says its requests are done.
 *
 * <pre>
 * Rollout rollout = appSwitch.begin(newHandler, new Canary(10_000, 0.05, 20));
 * Outcome outcome = rollout.await();        // on the thread that reloads, never a worker
 * if (outcome.awaitIdle(30_000)) { release the loser's runtime }
 * </pre>
 */
public final class Rollout {
    /** How a rollout ended. */
    public enum Result { SWITCHED, ROLLED_BACK }

    private static final long MAX_WAIT_MILLIS = 100;

    private final Generation old;
    private final Generation next;
    private final Canary canary;
    private final LongSupplier clockMillis;
    private final DoubleSupplier random;
    private final long started;
    private final Consumer<Generation> settle;
    private Outcome outcome; // guarded by this

    Rollout(Generation old, Generation next, Canary canary, LongSupplier clockMillis, DoubleSupplier random,
            Consumer<Generation> settle) {
        this.old = old;
        this.next = next;
        this.canary = canary;
        this.clockMillis = clockMillis;
        this.random = random;
        this.started = clockMillis.getAsLong();
        this.settle = settle;
    }

    void route(RackRequest request, ResponseSink sink) {
        double share = canary.share(clockMillis.getAsLong() - started);
        boolean toNext = (share >= 1 || random.getAsDouble() < share) && next.running() < canary.maxRunning();
        Generation chosen = toNext ? next : old;
        chosen.enter(); // before the check: a loser is released only once no request is in it
        Outcome done = decided();
        if (done != null) {
            chosen.leave(); // the rollout settled since this request read it
            done.winner.handle(request, sink);
            return;
        }
        try {
            chosen.handleEntered(request, sink);
        } finally {
            if (toNext && canary.failing(next.tally(), old.tally())) {
                decide(Result.ROLLED_BACK);
            }
        }
    }

    org.nettyrack.core.RackHandler nextHandler() {
        return next.handler;
    }

    /** The share of new requests the new version gets now (1 once it is decided either way). */
    public double share() {
        return decided() != null ? 1 : canary.share(clockMillis.getAsLong() - started);
    }

    /** The outcome if there is one now: decided already, or switched because the canary is over; else null. */
    public synchronized Outcome poll() {
        if (outcome == null && canary.over(next.tally(), clockMillis.getAsLong() - started)) {
            decide(Result.SWITCHED);
        }
        return outcome;
    }

    /** Blocks until the rollout ends (at most the canary's time, sooner on a rollback). */
    public synchronized Outcome await() throws InterruptedException {
        while (poll() == null) {
            long left = canary.millis() - (clockMillis.getAsLong() - started);
            wait(left > 0 ? Math.min(left, MAX_WAIT_MILLIS) : MAX_WAIT_MILLIS);
        }
        return outcome;
    }

    private synchronized Outcome decided() {
        return outcome;
    }

    private synchronized void decide(Result result) {
        if (outcome != null) {
            return;
        }
        Canary.Tally nextTally = next.tally();
        Canary.Tally oldTally = old.tally();
        boolean switched = result == Result.SWITCHED;
        outcome = new Outcome(result, switched ? next : old, switched ? old : next, nextTally, oldTally,
            clockMillis.getAsLong() - started);
        settle.accept(outcome.winner);
        notifyAll();
    }

    /** How the rollout ended, and the loser to release. */
    public static final class Outcome {
        private static final long IDLE_POLL_MILLIS = 10;

        private final Result result;
        private final Generation winner;
        private final Generation loser;
        private final Canary.Tally next;
        private final Canary.Tally old;
        private final long millis;

        Outcome(Result result, Generation winner, Generation loser, Canary.Tally next, Canary.Tally old, long millis) {
            this.result = result;
            this.winner = winner;
            this.loser = loser;
            this.next = next;
            this.old = old;
            this.millis = millis;
        }

        public Result result() {
            return result;
        }

        public boolean switched() {
            return result == Result.SWITCHED;
        }

        /** The serving version's number: 1 for the first, one more for each that took over. */
        public int generation() {
            return winner.number;
        }

        /** How long the canary ran, in ms. */
        public long millis() {
            return millis;
        }

        /** The new and the old version's answers during the canary, in words. */
        public String tallies() {
            return "new code " + next + ", old code " + old;
        }

        /** Waits until the loser runs no request any more; false if {@code timeoutMillis} passed first. */
        public boolean awaitIdle(long timeoutMillis) throws InterruptedException {
            long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
            while (loser.running() > 0) {
                if (System.nanoTime() - deadline >= 0) {
                    return false;
                }
                Thread.sleep(IDLE_POLL_MILLIS);
            }
            return true;
        }
    }
}
