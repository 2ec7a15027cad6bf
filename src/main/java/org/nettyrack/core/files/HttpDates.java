package org.nettyrack.core.files;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/** HTTP dates (RFC 9110 IMF-fixdate, RFC 1123 form) to and from epoch seconds. */
final class HttpDates {
    private static final DateTimeFormatter FORMAT = DateTimeFormatter.RFC_1123_DATE_TIME.withZone(ZoneOffset.UTC);

    private HttpDates() {
    }

    static String format(long epochMillis) {
        return FORMAT.format(Instant.ofEpochMilli(epochMillis - Math.floorMod(epochMillis, 1000L)));
    }

    /** Epoch seconds of an HTTP date, or -1 when it is not one. */
    static long parseSeconds(String value) {
        try {
            return Instant.from(FORMAT.parse(value.trim())).getEpochSecond();
        } catch (DateTimeParseException e) {
            return -1;
        }
    }
}
