package org.nettyrack.core.metrics;

import java.util.concurrent.atomic.LongAdder;

/**
 * A Prometheus histogram of durations in seconds with fixed buckets ({@link #BUCKETS}): one
 * adder per bucket (not cumulative; {@link #write} sums them), a count and a sum in ns. Cheap
 * enough for every request, safe from any thread.
 */
public final class Histogram {
    /** Upper bounds in seconds: 1 ms to 10 s, as most HTTP dashboards expect. */
    public static final double[] BUCKETS = {0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10};
    private static final long[] BOUNDS_NANOS = new long[BUCKETS.length];

    static {
        for (int i = 0; i < BUCKETS.length; i++) {
            BOUNDS_NANOS[i] = Math.round(BUCKETS[i] * 1e9);
        }
    }

    private final LongAdder[] buckets = new LongAdder[BUCKETS.length + 1]; // the last: above every bound
    private final LongAdder sumNanos = new LongAdder();

    public Histogram() {
        for (int i = 0; i < buckets.length; i++) {
            buckets[i] = new LongAdder();
        }
    }

    public void observeNanos(long nanos) {
        long value = Math.max(0, nanos);
        int i = 0;
        while (i < BOUNDS_NANOS.length && value > BOUNDS_NANOS[i]) {
            i++;
        }
        buckets[i].increment();
        sumNanos.add(value);
    }

    /** The series of one histogram: {@code _bucket} (cumulative, with {@code le}), {@code _sum}, {@code _count}. */
    public void write(PrometheusText out, String name, String... labels) {
        long cumulative = 0;
        for (int i = 0; i < buckets.length; i++) {
            cumulative += buckets[i].sum();
            String le = i < BUCKETS.length ? PrometheusText.number(BUCKETS[i]) : "+Inf";
            out.sample(name + "_bucket", cumulative, withLe(labels, le));
        }
        out.sample(name + "_sum", sumNanos.sum() / 1e9, labels);
        out.sample(name + "_count", cumulative, labels);
    }

    private static String[] withLe(String[] labels, String le) {
        String[] all = java.util.Arrays.copyOf(labels, labels.length + 2);
        all[labels.length] = "le";
        all[labels.length + 1] = le;
        return all;
    }
}
