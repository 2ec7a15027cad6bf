package org.nettyrack.core;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * Writes one line per finished request in the format of Rack::CommonLogger:
 * {@code 127.0.0.1 - - [21/Nov/2026:10:00:00 +0000] "GET /path HTTP/1.1" 200 13 0.0012}.
 * Lines are written whole under a lock, so concurrent requests never interleave.
 */
public final class AccessLog {
    private static final DateTimeFormatter TIME =
        DateTimeFormatter.ofPattern("dd/MMM/yyyy:HH:mm:ss Z", Locale.ROOT);

    private final OutputStream out;

    public AccessLog(OutputStream out) {
        this.out = out;
    }

    public void log(String remote, String method, String target, String protocol,
                    int status, long bytes, long startNanos) {
        double seconds = (System.nanoTime() - startNanos) / 1e9;
        String line = String.format(Locale.ROOT, "%s - - [%s] \"%s %s %s\" %d %s %.4f%n",
            remote, ZonedDateTime.now().format(TIME), method, target, protocol, status,
            bytes == 0 ? "-" : Long.toString(bytes), seconds);
        byte[] data = line.getBytes(StandardCharsets.UTF_8);
        synchronized (this) {
            try {
                out.write(data);
                out.flush();
            } catch (IOException ignored) {
                // A broken log must not break serving.
            }
        }
    }
}
