package org.nettyrack.core.warmup;

import java.util.List;
import java.util.Locale;

/**
 * What a warm-up did, for the boot output: how many answers in how long, the throughput of its
 * first and of its best second, why it stopped, and the requests that failed (each once: a
 * failed request leaves the rotation).
 */
public record WarmupReport(long answered, long elapsedMillis, List<Double> rates, WarmupProgress.Stop stop,
                           List<String> failures) {
    public WarmupReport {
        rates = List.copyOf(rates);
        failures = List.copyOf(failures);
    }

    /** "warmed up in 12.4 s: 4,210 requests, from 80 to 950 req/s (throughput flat, JIT quiet)", then any failures. */
    public String summary() {
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "warmed up in %.1f s: %,d request%s",
            elapsedMillis / 1000.0, answered, answered == 1 ? "" : "s"));
        if (!rates.isEmpty()) {
            double peak = rates.stream().mapToDouble(Double::doubleValue).max().orElse(0);
            line.append(String.format(Locale.ROOT, ", from %,.0f to %,.0f req/s", rates.get(0), peak));
        }
        line.append(" (").append(stop.words()).append(')');
        if (!failures.isEmpty()) {
            line.append("; failed: ").append(String.join(", ", failures));
        }
        return line.toString();
    }
}
