package org.nettyrack.core;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * The server's own error stream, for what goes wrong outside the application: a connection
 * dropped for a reason the client should have been told, an internal failure. Lines are
 * prefixed {@code nettyrack: } and written whole, in one write under the stream's lock, so they
 * never interleave;
 * writing never throws (a broken log must not break serving). By default stderr; the launcher
 * points it where {@code rack.errors} goes.
 */
public final class ErrorLog {
    private static final byte[] PREFIX = "nettyrack: ".getBytes(StandardCharsets.US_ASCII);

    private final OutputStream out;

    public ErrorLog(OutputStream out) {
        this.out = out;
    }

    /** The process's stderr, looked up at each write (tests may replace System.err). */
    public static ErrorLog stderr() {
        return new ErrorLog(null);
    }

    public void log(String line) {
        write((line + "\n").getBytes(StandardCharsets.UTF_8));
    }

    /** A line and the failure's stack trace. */
    public void report(String what, Throwable failure) {
        java.io.ByteArrayOutputStream text = new java.io.ByteArrayOutputStream();
        PrintStream print = new PrintStream(text, true, StandardCharsets.UTF_8);
        print.print(what + ": ");
        failure.printStackTrace(print);
        write(text.toByteArray());
    }

    private void write(byte[] data) {
        OutputStream target = out == null ? System.err : out;
        byte[] line = new byte[PREFIX.length + data.length];
        System.arraycopy(PREFIX, 0, line, 0, PREFIX.length);
        System.arraycopy(data, 0, line, PREFIX.length, data.length);
        synchronized (target) {
            try {
                target.write(line);
                target.flush();
            } catch (IOException | RuntimeException ignored) {
                // Nowhere left to report to.
            }
        }
    }
}
