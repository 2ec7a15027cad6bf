package org.nettyrack.core.warmup;

import java.util.ArrayList;
import java.util.List;

/**
 * When a warm-up has done enough, decided from a count of answers read once a second. It ends
 * at its time or its count, or once throughput stops rising: after {@link #MIN_SECONDS}, when
 * the best rate over {@link #SMOOTHING} seconds has not grown by {@link #MIN_GAIN} or more in
 * the last {@link #PATIENCE} seconds. That is the JIT having compiled what these requests run
 * (the throughput a cold JVM gains comes from that, and stops coming once it is done); what
 * stays cold stays so for requests nobody named. The clock is the caller's, so a test moves it.
 *
 * <pre>
 * progress.sample(nanos, answered)  // each second: null to go on, or why to stop
 * progress.answered(answered)       // each answer: COUNT once the count is reached
 * </pre>
 */
public final class WarmupProgress {
    public enum Stop {
        /** The time given ran out. */
        TIME("time up"),
        /** The count given was reached. */
        COUNT("count reached"),
        /** Throughput stopped rising. */
        PLATEAU("throughput flat"),
        /** Every request failed: nothing left to run. */
        FAILED("every request failed"),
        /** The server was asked to stop meanwhile. */
        CANCELLED("cancelled");

        private final String words;

        Stop(String words) {
            this.words = words;
        }

        public String words() {
            return words;
        }
    }

    static final int MIN_SECONDS = 5;
    static final int SMOOTHING = 3;
    static final int PATIENCE = 5;
    static final double MIN_GAIN = 0.05;
    private static final double SECOND = 1e9;

    private final long startNanos;
    private final long maxNanos;
    private final long maxRequests;
    private final List<Double> rates = new ArrayList<>();
    private long lastNanos;
    private long lastAnswered;
    private double best;
    private int bestAt;

    public WarmupProgress(long startNanos, long maxMillis, long maxRequests) {
        this.startNanos = startNanos;
        this.lastNanos = startNanos;
        this.maxNanos = maxMillis * 1_000_000L;
        this.maxRequests = maxRequests;
    }

    /** COUNT once {@code answered} reached the count given, else null. */
    public Stop answered(long answered) {
        return maxRequests > 0 && answered >= maxRequests ? Stop.COUNT : null;
    }

    /** Records the answers so far at {@code nanos}; returns why to stop, or null to go on. */
    public Stop sample(long nanos, long answered) {
        double seconds = (nanos - lastNanos) / SECOND;
        if (seconds > 0) {
            rates.add((answered - lastAnswered) / seconds);
            lastNanos = nanos;
            lastAnswered = answered;
        }
        if (answered(answered) != null) {
            return Stop.COUNT;
        }
        if (nanos - startNanos >= maxNanos) {
            return Stop.TIME;
        }
        if (rates.size() >= SMOOTHING) {
            double smoothed = rates.subList(rates.size() - SMOOTHING, rates.size()).stream()
                .mapToDouble(Double::doubleValue).average().orElse(0);
            if (smoothed > best * (1 + MIN_GAIN)) {
                best = smoothed;
                bestAt = rates.size();
            }
        }
        boolean longEnough = (nanos - startNanos) / SECOND >= MIN_SECONDS;
        return longEnough && rates.size() - bestAt >= PATIENCE ? Stop.PLATEAU : null;
    }

    /** The answers per second of each second sampled, oldest first. */
    public List<Double> rates() {
        return List.copyOf(rates);
    }
}
