package org.nettyrack.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class AccessLogTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    /** A request as the log sees it; header names in lower case, as the transport's lookup is case-insensitive. */
    private static RackRequest request(String method, String target, Map<String, String> headers) {
        return request(method, target, headers, RequestTimes.now());
    }

    private static RackRequest request(String method, String target, Map<String, String> headers, RequestTimes times) {
        String sent = headers.get(RequestId.HEADER);
        String id = RequestId.of(sent == null ? List.of() : List.of(sent));
        return new RackRequest() {
            public String method() { return method; }
            public String target() { return target; }
            public String protocol() { return "HTTP/1.1"; }
            public String scheme() { return "http"; }
            public void forEachHeader(HeaderVisitor visitor) { headers.forEach(visitor::header); }
            public String header(String name) { return headers.get(name); }
            public String remoteAddress() { return "10.0.0.1"; }
            public int remotePort() { return 5000; }
            public String localAddress() { return "127.0.0.1"; }
            public int localPort() { return 9292; }
            public RequestBody body() { return null; }
            public RequestTimes times() { return times; }
            public String requestId() { return id; }
        };
    }

    private String logged() {
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void writesCommonLogFormatByDefault() {
        new AccessLog(out).log(request("GET", "/a?b=1", Map.of()), 200, 13, System.nanoTime());
        assertTrue(logged().matches("10\\.0\\.0\\.1 - - \\[\\d\\d/\\w{3}/\\d{4}:\\d\\d:\\d\\d:\\d\\d [+-]\\d{4}\\] "
            + "\"GET /a\\?b=1 HTTP/1\\.1\" 200 13 \\d+\\.\\d{4}\\R"), logged());
    }

    @Test
    void addsNothingToTheCommonLine() {
        new AccessLog(out).log(request("GET", "/", Map.of("x-request-id", "req-1")), 200, 0, System.nanoTime());
        assertFalse(logged().contains("req-1"), logged());
        assertTrue(logged().matches(".*\" 200 - \\d+\\.\\d{4}\\R"), logged());
    }

    @Test
    void writesOneJsonObjectPerLine() {
        AccessLog log = new AccessLog(out, AccessLogFormat.JSON);
        log.log(request("GET", "/a?q=\"x\"", Map.of("user-agent", "curl/8.5.0", "referer", "http://e/", "x-request-id", "req-1")),
            200, 13, System.nanoTime());
        log.log(request("POST", "/b", Map.of()), 500, 0, System.nanoTime());
        String[] lines = logged().split("\n", -1);
        assertEquals(3, lines.length, "two lines, each ending in a newline");
        assertTrue(lines[0].matches("\\{\"time\":\"\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}(Z|[+-]\\d\\d:\\d\\d)\","
            + "\"request_id\":\"req-1\","
            + "\"remote\":\"10\\.0\\.0\\.1\",\"method\":\"GET\",\"target\":\"/a\\?q=\\\\\"x\\\\\"\",\"protocol\":\"HTTP/1\\.1\","
            + "\"status\":200,\"bytes\":13,\"duration\":\\d+\\.\\d{6},\"queue\":0\\.000000,\"app\":0\\.000000,"
            + "\"upstream_queue\":null,\"user_agent\":\"curl/8\\.5\\.0\",\"referer\":\"http://e/\"}"),
            lines[0]);
        assertTrue(lines[1].endsWith("\"status\":500,\"bytes\":0,\"duration\":" + duration(lines[1])
            + ",\"queue\":0.000000,\"app\":0.000000,\"upstream_queue\":null,\"user_agent\":null,\"referer\":null}"), lines[1]);
        assertTrue(lines[1].matches(".*\"request_id\":\"[0-9a-f]{32}\".*"), "an id made for it: " + lines[1]);
    }

    @Test
    void writesThreeDigitsOfMillisecondsEvenWhenTheyEndInZero() {
        ZonedDateTime onTheSecond = ZonedDateTime.of(2026, 11, 23, 16, 38, 29, 0, ZoneOffset.UTC);
        ZonedDateTime at380 = onTheSecond.plusNanos(380_000_000);
        ZonedDateTime inBerlin = ZonedDateTime.of(2026, 11, 23, 17, 0, 0, 7_000_000, ZoneOffset.ofHours(1));
        assertTrue(AccessLogFormat.JSON.line(request("GET", "/", Map.of()), 200, 0, 0, onTheSecond)
            .startsWith("{\"time\":\"2026-11-23T16:38:29.000Z\","));
        assertTrue(AccessLogFormat.JSON.line(request("GET", "/", Map.of()), 200, 0, 0, at380)
            .startsWith("{\"time\":\"2026-11-23T16:38:29.380Z\","));
        assertTrue(AccessLogFormat.JSON.line(request("GET", "/", Map.of()), 200, 0, 0, inBerlin)
            .startsWith("{\"time\":\"2026-11-23T17:00:00.007+01:00\","));
    }

    @Test
    void measuresTheDurationFromTheHeadsArrivalToTheEndItIsGiven() {
        long twoSecondsAgo = System.nanoTime() - TimeUnit.SECONDS.toNanos(2);
        RequestTimes times = new RequestTimes(twoSecondsAgo, 0);
        new AccessLog(out, AccessLogFormat.JSON).log(request("GET", "/", Map.of(), times), 200, 1,
            twoSecondsAgo + TimeUnit.MILLISECONDS.toNanos(2500));
        assertEquals("2.500000", duration(logged()));
    }

    @Test
    void givesTheQueueTheAppAndTheProxysQueueInSeconds() {
        long oneAndAHalfSecondsBefore = System.currentTimeMillis() * 1000 - 1_500_000;
        RequestTimes times = new RequestTimes(System.nanoTime(), oneAndAHalfSecondsBefore);
        times.dispatched();
        times.started();
        times.returned();
        new AccessLog(out, AccessLogFormat.JSON).log(request("GET", "/", Map.of(), times), 200, 1, System.nanoTime());
        double queue = Double.parseDouble(field(logged(), "queue"));
        double app = Double.parseDouble(field(logged(), "app"));
        double upstream = Double.parseDouble(field(logged(), "upstream_queue"));
        double duration = Double.parseDouble(duration(logged()));
        assertTrue(queue >= 0 && app >= 0 && queue + app <= duration + 1e-6, logged());
        assertTrue(upstream >= 1.5 && upstream < 1.6, "the proxy's start 1.5 s before the arrival: " + logged());
    }

    @Test
    void namesItsFormatsAsTheCliDoes() {
        assertEquals(AccessLogFormat.JSON, AccessLogFormat.named("json"));
        assertEquals(AccessLogFormat.COMMON, AccessLogFormat.named("COMMON"));
        assertEquals("access log format must be common or json, got xml",
            assertThrows(IllegalArgumentException.class, () -> AccessLogFormat.named("xml")).getMessage());
    }

    private static String duration(String line) {
        return field(line, "duration");
    }

    private static String field(String line, String name) {
        Matcher m = Pattern.compile("\"" + name + "\":([0-9.]+)").matcher(line);
        assertTrue(m.find(), line);
        return m.group(1);
    }
}
