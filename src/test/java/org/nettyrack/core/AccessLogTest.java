package org.nettyrack.core;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class AccessLogTest {
    @Test
    void writesCommonLogFormat() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new AccessLog(out).log("10.0.0.1", "GET", "/a?b=1", "HTTP/1.1", 200, 13, System.nanoTime());
        String line = out.toString(StandardCharsets.UTF_8);
        assertTrue(line.matches("10\\.0\\.0\\.1 - - \\[\\d\\d/\\w{3}/\\d{4}:\\d\\d:\\d\\d:\\d\\d [+-]\\d{4}\\] "
            + "\"GET /a\\?b=1 HTTP/1\\.1\" 200 13 \\d+\\.\\d{4}\\R"), line);
    }
}
