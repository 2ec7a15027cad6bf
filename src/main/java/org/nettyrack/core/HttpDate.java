package org.nettyrack.core;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * HTTP dates, as every header of both doors writes and reads them ({@code Date},
 * {@code Last-Modified}, {@code If-Modified-Since}, {@code If-Range}), and the {@code Date}
 * response header's value, formatted at most once per second and shared by every response of
 * that second:
 *
 * <blockquote>An origin server with a clock (as defined in Section 5.6.7) MUST generate a Date
 * header field in all 2xx (Successful), 3xx (Redirection), and 4xx (Client Error) responses,
 * and MAY generate a Date header field in 1xx (Informational) and 5xx (Server Error)
 * responses. (RFC 9110, section 6.6.1)</blockquote>
 *
 * <p>The form is the IMF-fixdate of section 5.6.7 ({@code Sun, 06 Nov 1994 08:49:37 GMT}: the
 * day of the month always two digits, which Java's RFC 1123 formatter does not do).
 * {@link #current()} reads the clock and compares whole seconds; only the first response of a
 * new second formats. {@link #parseSeconds} reads the three forms a recipient MUST accept
 * (section 5.6.7): IMF-fixdate, the obsolete RFC 850 form and asctime's.
 */
public final class HttpDate {
    /** The server's clock; tests make their own with a clock they move. */
    public static final HttpDate SYSTEM = new HttpDate(System::currentTimeMillis);

    private static final DateTimeFormatter IMF_FIXDATE =
        DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US).withZone(ZoneOffset.UTC);
    /** What a recipient accepts: IMF-fixdate (and a one-digit day), RFC 850's, asctime's. */
    private static final DateTimeFormatter[] ACCEPTED = {
        DateTimeFormatter.RFC_1123_DATE_TIME.withZone(ZoneOffset.UTC),
        new DateTimeFormatterBuilder().appendPattern("EEEE, dd-MMM-").appendValueReduced(ChronoField.YEAR, 2, 2, 1970)
            .appendPattern(" HH:mm:ss 'GMT'").toFormatter(Locale.US).withZone(ZoneOffset.UTC),
        DateTimeFormatter.ofPattern("EEE MMM ppd HH:mm:ss yyyy", Locale.US).withZone(ZoneOffset.UTC),
    };

    private record Stamp(long second, String value) {
    }

    private final LongSupplier millis;
    private volatile Stamp stamp = new Stamp(Long.MIN_VALUE, null);

    /** millis: the clock, in milliseconds since the epoch. */
    public HttpDate(LongSupplier millis) {
        this.millis = millis;
    }

    /** Whether a response with this status must carry a date: any but 1xx (5xx may, and gets one too). */
    public static boolean applies(int status) {
        return status >= 200;
    }

    /** Now as an IMF-fixdate; the same String object for every call in one second. */
    public String current() {
        long second = Math.floorDiv(millis.getAsLong(), 1000L);
        Stamp now = stamp;
        if (now.second() != second) {
            now = new Stamp(second, format(second));
            stamp = now;
        }
        return now.value();
    }

    /** An IMF-fixdate of this second since the epoch. */
    public static String format(long epochSecond) {
        return IMF_FIXDATE.format(Instant.ofEpochSecond(epochSecond));
    }

    /** The IMF-fixdate of the whole second this instant (ms since the epoch) falls in. */
    public static String formatMillis(long epochMillis) {
        return format(Math.floorDiv(epochMillis, 1000L));
    }

    /** Epoch seconds of an HTTP date in any of its three forms, or -1 when it is none of them. */
    public static long parseSeconds(String value) {
        String text = value.trim();
        for (DateTimeFormatter form : ACCEPTED) {
            try {
                return Instant.from(form.parse(text)).getEpochSecond();
            } catch (DateTimeParseException notThisOne) {
                // the next form
            }
        }
        return -1;
    }
}
