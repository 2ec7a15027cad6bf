package org.nettyrack.core.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class PrometheusTextTest {
    @Test
    void writesHelpTypeAndSamplesWithEscapedLabelValues() {
        PrometheusText out = new PrometheusText();
        out.family("x_total", "counter", "A help\\text\nover lines.")
            .sample("x_total", 3, "path", "a\"b\\c\nd")
            .sample("x_total", 0.25);
        assertEquals("# HELP x_total A help\\\\text\\nover lines.\n# TYPE x_total counter\n"
            + "x_total{path=\"a\\\"b\\\\c\\nd\"} 3\nx_total 0.25\n", out.toString());
    }

    @Test
    void writesNumbersAsTheFormatReadsThem() {
        assertEquals("12", PrometheusText.number(12.0));
        assertEquals("0.001", PrometheusText.number(0.001));
        assertEquals("NaN", PrometheusText.number(Double.NaN));
        assertEquals("+Inf", PrometheusText.number(Double.POSITIVE_INFINITY));
        assertEquals("-Inf", PrometheusText.number(Double.NEGATIVE_INFINITY));
        assertEquals(1.795967003408E9, Double.parseDouble(PrometheusText.number(1.795967003408E9)));
    }

    @Test
    void aFamilyIsWrittenOnce() {
        PrometheusText out = new PrometheusText().family("a", "gauge", "h");
        assertThrows(IllegalStateException.class, () -> out.family("a", "gauge", "h"));
    }
}
