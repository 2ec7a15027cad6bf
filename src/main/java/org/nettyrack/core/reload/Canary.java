package org.nettyrack.core.reload;

/**
 * How a new version of the application takes over from the one serving: the share of new
 * requests it gets grows in a straight line from 1 % to all of them over {@code millis}; if,
 * once it has answered {@code minAnswers}, the share of its answers that are 5xx passes the
 * old version's share over the same time by more than {@code maxErrorRate}, it is rolled back.
 * It has taken over once the time has passed and it has answered {@code minAnswers}; with so
 * little traffic that it has not, it gets every request, still judged, until it has, or until
 * the same time again has passed (then it stays, unjudged: nothing said it was wrong).
 * Until then it runs at most {@code maxRunning} requests at once, the rest going to the old
 * version: code that has not been compiled yet answers many times slower, and a share of
 * requests it cannot keep up with would hold every worker thread.
 *
 * <pre>
 * new Canary(30_000, 0.05, 20, 2)   // 30 s; back out at 5 points more 5xx than the old code, after 20
 *                                   // answers; at most 2 requests at once on the new code until then
 * </pre>
 */
public record Canary(long millis, double maxErrorRate, int minAnswers, int maxRunning) {
    static final double FIRST_SHARE = 0.01;

    public Canary {
        if (millis < 0) {
            throw new IllegalArgumentException("a canary lasts 0 ms or more, got " + millis);
        }
        if (!(maxErrorRate >= 0 && maxErrorRate <= 1)) {
            throw new IllegalArgumentException("an error rate is between 0 and 1, got " + maxErrorRate);
        }
        if (minAnswers < 1) {
            throw new IllegalArgumentException("a canary judges after 1 answer or more, got " + minAnswers);
        }
        if (maxRunning < 1) {
            throw new IllegalArgumentException("a canary runs 1 request or more at once, got " + maxRunning);
        }
    }

    /** The share (0..1] of new requests the new version gets {@code elapsedMillis} into the canary. */
    double share(long elapsedMillis) {
        if (elapsedMillis >= millis) {
            return 1;
        }
        return FIRST_SHARE + (1 - FIRST_SHARE) * elapsedMillis / (double) millis;
    }

    /** Whether the new version has taken over, {@code elapsedMillis} into the canary, with these answers. */
    boolean over(Canary.Tally next, long elapsedMillis) {
        return elapsedMillis >= millis && (next.answers() >= minAnswers || elapsedMillis >= 2 * millis);
    }

    /** Whether the new version's answers are bad enough, against the old one's, to roll it back. */
    boolean failing(Tally next, Tally old) {
        return next.answers() >= minAnswers && next.errorRate() - old.errorRate() > maxErrorRate;
    }

    /** Answers and 5xx answers of one version during a canary. */
    record Tally(long answers, long errors) {
        double errorRate() {
            return answers == 0 ? 0 : errors / (double) answers;
        }

        @Override
        public String toString() {
            return errors + " of " + answers + " answers 5xx";
        }
    }
}
