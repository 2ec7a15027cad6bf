package org.nettyrack.core.warmup;

import java.util.ArrayList;
import java.util.List;

/**
 * When a warm-up has done enough, decided from a count of answers and the CPU the JIT's
 * compilers used against what the whole process got ({@link JitCpu}), read once a second. It
 * ends at its time or its count, or once the JIT is done with what these requests run: after
 * {@link #MIN_SECONDS}, when the best rate over {@link #SMOOTHING} seconds has not grown by
 * {@link #MIN_GAIN} or more in the last {@link #PATIENCE} seconds, and the compilers took less
 * than {@link #QUIET_SHARE} of the process's CPU over the last {@link #SMOOTHING} seconds.
 * Throughput alone is not enough: beside a process that keeps every core busy (the old one, in
 * a hot restart) a cold one's rate is flat while it is still compiling (the Rails example: flat
 * at 140 req/s with the compilers at a second a second; once warm they take a few per cent).
 * And the JIT's time per second of the clock is not enough either: a process that gets little
 * CPU (niced, the old one busy) finishes few compilations a second while its compilers still
 * take most of what it gets; weighed against the clock it looked done at 5 % of its peak. What
 * stays cold stays so for requests nobody named. The clock is the caller's, so a test moves it.
 *
 * <pre>
 * progress.sample(nanos, answered, meter.read())  // each second: null to go on, or why to stop
 * progress.answered(answered)                     // each answer: COUNT once the count is reached
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
    /** The share of the process's CPU under which the compilers count as quiet. */
    static final double QUIET_SHARE = 0.05;
    private static final double SECOND = 1e9;

    private final long startNanos;
    private final long maxNanos;
    private final long maxRequests;
    private final List<Double> rates = new ArrayList<>();
    /** Per sample: the compilers' CPU and the process's, in ms. */
    private final List<long[]> cpu = new ArrayList<>();
    private long lastNanos;
    private long lastAnswered;
    private JitCpu lastCpu;
    private double best;
    private int bestAt;

    /** startCpu: the CPU the compilers and the process had used when the warm-up starts. */
    public WarmupProgress(long startNanos, long maxMillis, long maxRequests, JitCpu startCpu) {
        this.startNanos = startNanos;
        this.lastNanos = startNanos;
        this.lastCpu = startCpu;
        this.maxNanos = maxMillis * 1_000_000L;
        this.maxRequests = maxRequests;
    }

    /** COUNT once {@code answered} reached the count given, else null. */
    public Stop answered(long answered) {
        return maxRequests > 0 && answered >= maxRequests ? Stop.COUNT : null;
    }

    /**
     * Records the answers so far and the CPU used so far at {@code nanos}; returns why to stop,
     * or null to go on.
     */
    public Stop sample(long nanos, long answered, JitCpu used) {
        double seconds = (nanos - lastNanos) / SECOND;
        if (seconds > 0) {
            rates.add((answered - lastAnswered) / seconds);
            cpu.add(new long[] {used.compilerMillis() - lastCpu.compilerMillis(), used.processMillis() - lastCpu.processMillis()});
            lastNanos = nanos;
            lastAnswered = answered;
            lastCpu = used;
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

    /** The compilers' share of the CPU the process got over the last seconds is small (and it got some). */
    private boolean jitQuiet() {
        if (cpu.size() < SMOOTHING) {
            return false;
        }
        long compilers = 0;
        long process = 0;
        for (long[] second : cpu.subList(cpu.size() - SMOOTHING, cpu.size())) {
            compilers += second[0];
            process += second[1];
        }
        return process > 0 && compilers < QUIET_SHARE * process;
    }

    /** The answers per second of each second sampled, oldest first. */
    public List<Double> rates() {
        return List.copyOf(rates);
    }
}
