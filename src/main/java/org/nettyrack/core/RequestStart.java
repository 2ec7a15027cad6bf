package org.nettyrack.core;

/**
 * {@code X-Request-Start}, the header a proxy sets as it takes a request, so that the app's
 * APM (New Relic, Datadog, Sentry, Scout) can show the time it waited before the server got
 * it. Heroku's router and nginx ({@code proxy_set_header X-Request-Start "t=${msec}"}) write
 * {@code t=} and a Unix time; the unit is told by the size, as the APM agents do: seconds
 * (with a fraction, nginx's {@code $msec}), milliseconds, microseconds or nanoseconds. A value
 * that is not one of these is ignored, never an error.
 */
public final class RequestStart {
    /** 2000-01-01 in seconds: an earlier time is no request's. */
    private static final double EARLIEST_SECONDS = 946_684_800;

    private RequestStart() {
    }

    /** The start in µs since the epoch; 0 when value is null or not a time. */
    public static long parseMicros(String value) {
        if (value == null) {
            return 0;
        }
        String text = value.trim();
        if (text.startsWith("t=")) {
            text = text.substring(2).trim();
        }
        if (text.isEmpty() || text.length() > 32) {
            return 0;
        }
        double number;
        try {
            number = Double.parseDouble(text);
        } catch (NumberFormatException e) {
            return 0;
        }
        if (!(number > 0) || Double.isInfinite(number)) {
            return 0;
        }
        double micros;
        if (number < EARLIEST_SECONDS * 1e2) { // seconds (until the year 318857)
            micros = number * 1e6;
        } else if (number < EARLIEST_SECONDS * 1e5) {
            micros = number * 1e3; // milliseconds
        } else if (number < EARLIEST_SECONDS * 1e8) {
            micros = number; // microseconds
        } else if (number < EARLIEST_SECONDS * 1e11) {
            micros = number / 1e3; // nanoseconds
        } else {
            return 0;
        }
        return micros < EARLIEST_SECONDS * 1e6 ? 0 : (long) micros;
    }

    /** The header's value for a request that came without one: {@code t=} and µs since the epoch. */
    public static String header(long micros) {
        return "t=" + micros;
    }

    /** {@link #header} as ASCII bytes, written without a String (the env takes bytes). */
    public static byte[] headerBytes(long micros) {
        int digits = 1;
        for (long rest = micros / 10; rest > 0; rest /= 10) {
            digits++;
        }
        byte[] out = new byte[2 + digits];
        out[0] = 't';
        out[1] = '=';
        long rest = Math.max(0, micros);
        for (int i = out.length - 1; i >= 2; i--) {
            out[i] = (byte) ('0' + rest % 10);
            rest /= 10;
        }
        return out;
    }
}
