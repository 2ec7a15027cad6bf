package org.nettyrack.core;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.ZonedDateTime;

/**
 * Writes one line per finished request, in an {@link AccessLogFormat}: Rack::CommonLogger's by
 * default, or JSON. The duration runs from the request head's arrival ({@link
 * RackRequest#times}) to the response's last byte written (the transport calls this once that
 * write completes, with the time it did). Lines are written whole under a lock, so concurrent requests never
 * interleave; a failing stream is ignored, since a broken log must not break serving.
 */
public final class AccessLog {
    private final OutputStream out;
    private final AccessLogFormat format;

    public AccessLog(OutputStream out) {
        this(out, AccessLogFormat.COMMON);
    }

    public AccessLog(OutputStream out, AccessLogFormat format) {
        this.out = out;
        this.format = format;
    }

    /** endNanos: the {@code System.nanoTime()} of the last byte's write. */
    public void log(RackRequest request, int status, long bytes, long endNanos) {
        String line = format.line(request, status, bytes, endNanos, ZonedDateTime.now());
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
