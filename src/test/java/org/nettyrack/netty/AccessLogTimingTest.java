package org.nettyrack.netty;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.nettyrack.core.ResponseHeaders;
import org.nettyrack.core.config.ServerConfig;

/** The access log's duration starts when the request head arrives, not when the body is complete. */
class AccessLogTimingTest {
    @Test
    void timesFromTheHeadNotFromTheEndOfTheBody() {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        ServerConfig config = ServerConfig.builder().accessLog(log).accessLogFormat("json").build();
        PipelineHarness h = new PipelineHarness(config, (request, sink) -> sink.respond(204, new ResponseHeaders(), new byte[0], 0, 0),
            task -> {
                task.run();
                return true;
            });
        h.exchange("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\n");
        // A slow upload: the body comes at least 200 ms after the head (a lower bound only).
        long bodyAt = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(200);
        while (System.nanoTime() < bodyAt) {
            LockSupport.parkNanos(bodyAt - System.nanoTime());
        }
        h.exchange("abc");
        String line = log.toString(StandardCharsets.UTF_8);
        Matcher duration = Pattern.compile("\"duration\":([0-9.]+)").matcher(line);
        assertTrue(duration.find(), line);
        assertTrue(Double.parseDouble(duration.group(1)) >= 0.2, "the upload's time counts: " + line);
    }
}
