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
     * One JSON object per line (JSON Lines); time in ISO 8601 with milliseconds and the local
     * offset; the request's id ({@link RequestId}); spans in seconds with six decimals, from
     * {@link RequestTimes}: duration (the head's arrival to the last byte written), queue
     * (waiting for a worker), app (in the application), upstream_queue (from a proxy's
     * {@code X-Request-Start} to the head's arrival; null without one); user_agent and referer
     * null when not sent:
     * <pre>
     * {"time":"2026-11-21T10:00:00.123Z","request_id":"5f0c...","remote":"127.0.0.1","method":"GET",
     *  "target":"/a?b=1","protocol":"HTTP/1.1","status":200,"bytes":13,"duration":0.001234,"queue":0.000012,
     *  "app":0.001100,"upstream_queue":null,"user_agent":"curl/8.5.0","referer":null}
     * </pre>
     */
    JSON {
        /** Always three digits of milliseconds: ISO_OFFSET_DATE_TIME drops trailing zeros (.380 became .38). */
        private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSXXX", Locale.ROOT);

        @Override
        String line(RackRequest r, int status, long bytes, long endNanos, ZonedDateTime time) {
            RequestTimes times = r.times();
            long upstreamMicros = times.upstreamQueueMicros();
            Json json = new Json().beginObject()
                .name("time").value(time.format(TIME))
                .name("request_id").value(r.requestId())
                .name("remote").value(r.remoteAddress())
                .name("method").value(r.method())
                .name("target").value(r.target())
                .name("protocol").value(r.protocol())
                .name("status").value(status)
                .name("bytes").value(bytes)
                .name("duration").value(seconds(times.totalNanos(endNanos)), 6)
                .name("queue").value(seconds(times.queueNanos()), 6)
                .name("app").value(seconds(times.appNanos(endNanos)), 6)
                .name("upstream_queue");
            if (upstreamMicros < 0) {
                json.nullValue();
            } else {
                json.value(upstreamMicros / 1e6, 6);
            }
            return json.name("user_agent").value(r.header("user-agent"))
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
