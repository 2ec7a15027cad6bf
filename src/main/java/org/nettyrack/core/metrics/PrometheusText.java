package org.nettyrack.core.metrics;

import java.util.HashSet;
import java.util.Set;

/**
 * Writes Prometheus' text exposition format (version 0.0.4): each family's {@code # HELP} and
 * {@code # TYPE} once, then its samples, {@code name{label="value",...} number}. Label values
 * are escaped as the format says (backslash, double quote, newline); names are the caller's
 * constants. Not thread-safe: one per answer.
 */
public final class PrometheusText {
    public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private final StringBuilder out = new StringBuilder(16 * 1024);
    private final Set<String> families = new HashSet<>();

    /** Starts a family: type is {@code counter}, {@code gauge} or {@code histogram}. Once per name. */
    public PrometheusText family(String name, String type, String help) {
        if (!families.add(name)) {
            throw new IllegalStateException("metric family written twice: " + name);
        }
        out.append("# HELP ").append(name).append(' ').append(help.replace("\\", "\\\\").replace("\n", "\\n")).append('\n');
        out.append("# TYPE ").append(name).append(' ').append(type).append('\n');
        return this;
    }

    /** One sample; labels are name, value pairs. */
    public PrometheusText sample(String name, double value, String... labels) {
        out.append(name);
        if (labels.length > 0) {
            out.append('{');
            for (int i = 0; i < labels.length; i += 2) {
                if (i > 0) {
                    out.append(',');
                }
                out.append(labels[i]).append("=\"");
                escape(labels[i + 1]);
                out.append('"');
            }
            out.append('}');
        }
        out.append(' ').append(number(value)).append('\n');
        return this;
    }

    /** A family of one sample. */
    public PrometheusText single(String name, String type, String help, double value, String... labels) {
        return family(name, type, help).sample(name, value, labels);
    }

    private void escape(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '\\' -> out.append("\\\\");
                case '"' -> out.append("\\\"");
                case '\n' -> out.append("\\n");
                default -> out.append(c);
            }
        }
    }

    /** A number as the format wants it: integers without a fraction, NaN and infinities by name. */
    static String number(double value) {
        if (Double.isNaN(value)) {
            return "NaN";
        }
        if (Double.isInfinite(value)) {
            return value > 0 ? "+Inf" : "-Inf";
        }
        if (value == Math.rint(value) && Math.abs(value) < 1e15) {
            return Long.toString((long) value);
        }
        return Double.toString(value);
    }

    @Override
    public String toString() {
        return out.toString();
    }
}
