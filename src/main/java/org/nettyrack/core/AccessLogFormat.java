package org.nettyrack.core;

import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/** How {@link AccessLog} writes a request: one line each, ending in a newline. */
public enum AccessLogFormat {
    /**
     * Rack::CommonLogger's line, duration in seconds last:
     * {@code 127.0.0.1 - - [21/Nov/2026:10:00:00 +0000] "GET /path HTTP/1.1" 200 13 0.0012}.
     */
    COMMON {
        private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("dd/MMM/yyyy:HH:mm:ss Z", Locale.ROOT);

        @Override
        String line(RackRequest r, int status, long bytes, long endNanos, ZonedDateTime time) {
            return String.format(Locale.ROOT, "%s - - [%s] \"%s %s %s\" %d %s %.4f%n",
                r.remoteAddress(), time.format(TIME), r.method(), r.target(), r.protocol(), status,
                bytes == 0 ? "-" : Long.toString(bytes), seconds(r.times().totalNanos(endNanos)));
        }
    },
    /**
     * One JSON object per line (JSON Lines); duration in seconds, time in ISO 8601 with
     * milliseconds and the local offset; user_agent and referer null when not sent:
     * <pre>
     * {"time":"2026-11-21T10:00:00.123Z","remote":"127.0.0.1","method":"GET","target":"/a?b=1",
     *  "protocol":"HTTP/1.1","status":200,"bytes":13,"duration":0.001234,"user_agent":"curl/8.5.0","referer":null}
     * </pre>
     */
    JSON {
        /** Always three digits of milliseconds: ISO_OFFSET_DATE_TIME drops trailing zeros (.380 became .38). */
        private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSXXX", Locale.ROOT);

        @Override
        String line(RackRequest r, int status, long bytes, long endNanos, ZonedDateTime time) {
            return new Json().beginObject()
                .name("time").value(time.format(TIME))
                .name("remote").value(r.remoteAddress())
                .name("method").value(r.method())
                .name("target").value(r.target())
                .name("protocol").value(r.protocol())
                .name("status").value(status)
                .name("bytes").value(bytes)
                .name("duration").value(seconds(r.times().totalNanos(endNanos)), 6)
                .name("user_agent").value(r.header("user-agent"))
                .name("referer").value(r.header("referer"))
                .endObject() + "\n";
        }
    };

    /** The request's line; endNanos: when its last byte was written ({@code System.nanoTime()}). */
    abstract String line(RackRequest request, int status, long bytes, long endNanos, ZonedDateTime time);

    private static double seconds(long nanos) {
        return nanos / 1e9;
    }

    /** {@code common} or {@code json}, as the CLI spells them. */
    public static AccessLogFormat named(String name) {
        for (AccessLogFormat format : values()) {
            if (format.name().equalsIgnoreCase(name)) {
                return format;
            }
        }
        throw new IllegalArgumentException("access log format must be common or json, got " + name);
    }
}
