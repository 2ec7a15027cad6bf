package org.nettyrack.core.metrics;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class HistogramTest {
    @Test
    void countsEachObservationInItsBucketCumulativelyWithSumAndCount() {
        Histogram h = new Histogram();
        h.observeNanos(TimeUnit.MICROSECONDS.toNanos(500)); // 0.0005 s: le 0.001
        h.observeNanos(TimeUnit.MILLISECONDS.toNanos(1)); // exactly on a bound: counted in it
        h.observeNanos(TimeUnit.MILLISECONDS.toNanos(30)); // le 0.05
        h.observeNanos(TimeUnit.SECONDS.toNanos(11)); // above every bound: +Inf only
        h.observeNanos(-5); // a clock that stepped back counts as 0
        PrometheusText out = new PrometheusText().family("d", "histogram", "h");
        h.write(out, "d", "kind", "x");
        String text = out.toString();
        assertTrue(text.contains("d_bucket{kind=\"x\",le=\"0.001\"} 3\n"), text);
        assertTrue(text.contains("d_bucket{kind=\"x\",le=\"0.025\"} 3\n"), text);
        assertTrue(text.contains("d_bucket{kind=\"x\",le=\"0.05\"} 4\n"), text);
        assertTrue(text.contains("d_bucket{kind=\"x\",le=\"10\"} 4\n"), text);
        assertTrue(text.contains("d_bucket{kind=\"x\",le=\"+Inf\"} 5\n"), text);
        assertTrue(text.contains("d_count{kind=\"x\"} 5\n"), text);
        assertTrue(text.contains("d_sum{kind=\"x\"} 11.0315\n"), text);
    }
}
