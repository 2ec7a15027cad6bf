package org.nettyrack.core.warmup;

import java.util.ArrayList;
import java.util.List;

/**
 * When a warm-up has done enough, decided from a count of answers and the JIT's compilation
 * time, read once a second. It ends at its time or its count, or once the JIT is done with
 * what these requests run: after {@link #MIN_SECONDS}, when the best rate over
 * {@link #SMOOTHING} seconds has not grown by {@link #MIN_GAIN} or more in the last
 * {@link #PATIENCE} seconds, and the JIT compiled for less than {@link #QUIET_COMPILE_MILLIS}
 * a second over the last {@link #SMOOTHING} seconds. Throughput alone is not enough: beside a
 * process that keeps every core busy (the old one, in a hot restart) a cold one's rate is flat
 * while it is still compiling (the Rails example: flat at 140 req/s with the compilers at a
 * second a second; once warm they take under 0.1 s a second). What stays cold stays so for
 * requests nobody named. The clock is the caller's, so a test moves it.
 *
 * <pre>
 * progress.sample(nanos, answered, compileMillis)  // each second: null to go on, or why to stop
 * progress.answered(answered)                      // each answer: COUNT once the count is reached
 * </pre>
 */
public final class WarmupProgress {
    public enum Stop {
        /** The time given ran out. */
        TIME("time up"),
        /** The count given was reached. */
        COUNT("count reached"),
        /** Throughput stopped rising and the JIT is quiet. */
        PLATEAU("throughput flat, JIT quiet"),
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
    static final double QUIET_COMPILE_MILLIS = 100;
    private static final double SECOND = 1e9;

    private final long startNanos;
    private final long maxNanos;
    private final long maxRequests;
    private final List<Double> rates = new ArrayList<>();
    private final List<Double> compiling = new ArrayList<>();
    private long lastNanos;
    private long lastAnswered;
    private long lastCompileMillis;
    private double best;
    private int bestAt;

    /** compileMillis: the JIT's compilation time so far when the warm-up starts. */
    public WarmupProgress(long startNanos, long maxMillis, long maxRequests, long compileMillis) {
        this.startNanos = startNanos;
        this.lastNanos = startNanos;
        this.lastCompileMillis = compileMillis;
        this.maxNanos = maxMillis * 1_000_000L;
        this.maxRequests = maxRequests;
    }

    /** COUNT once {@code answered} reached the count given, else null. */
    public Stop answered(long answered) {
        return maxRequests > 0 && answered >= maxRequests ? Stop.COUNT : null;
    }

    /**
     * Records the answers so far and the JIT's compilation time so far (milliseconds, as the JVM's
     * CompilationMXBean counts it) at {@code nanos}; returns why to stop, or null to go on.
     */
    public Stop sample(long nanos, long answered, long compileMillis) {
        double seconds = (nanos - lastNanos) / SECOND;
        if (seconds > 0) {
            rates.add((answered - lastAnswered) / seconds);
            compiling.add((compileMillis - lastCompileMillis) / seconds);
            lastNanos = nanos;
            lastAnswered = answered;
            lastCompileMillis = compileMillis;
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
        return longEnough && rates.size() - bestAt >= PATIENCE && jitQuiet() ? Stop.PLATEAU : null;
    }

    private boolean jitQuiet() {
        if (compiling.size() < SMOOTHING) {
            return false;
        }
        return compiling.subList(compiling.size() - SMOOTHING, compiling.size()).stream()
            .allMatch(millisPerSecond -> millisPerSecond < QUIET_COMPILE_MILLIS);
    }

    /** The answers per second of each second sampled, oldest first. */
    public List<Double> rates() {
        return List.copyOf(rates);
    }
}
