package org.nettyrack.core;

import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * The answers a door gives on its own to a request it will not run (malformed, over a limit,
 * too slow, in a coding or HTTP version it does not speak, the server stopping), the same
 * behind every door: status, its reason phrase, and a {@code text/plain} body of both
 * ("413 Request Entity Too Large\n"). A HEAD gets the head alone. Each door adds its own
 * framing: the Netty door's encoder or raw bytes, the servlet door the container's response.
 * The app's failures are {@link FailureResponse}'s, not these.
 */
public final class PlainAnswers {
    /** The content type of every answer here. */
    public static final String CONTENT_TYPE = "text/plain";

    private static final Map<Integer, String> REASONS = Map.of(
        400, "Bad Request",
        408, "Request Timeout",
        413, "Request Entity Too Large",
        414, "Request-URI Too Long",
        431, "Request Header Fields Too Large",
        501, "Not Implemented",
        503, "Service Unavailable",
        505, "HTTP Version Not Supported");

    private PlainAnswers() {
    }

    /** The reason phrase of a status answered here; an unknown status is a programming error. */
    public static String reason(int status) {
        String reason = REASONS.get(status);
        if (reason == null) {
            throw new IllegalArgumentException("no plain answer for status " + status);
        }
        return reason;
    }

    /** The body: status, reason phrase and a newline, as text. */
    public static String text(int status) {
        return status + " " + reason(status) + "\n";
    }

    /** The body as bytes (US-ASCII). */
    public static byte[] body(int status) {
        return text(status).getBytes(StandardCharsets.US_ASCII);
    }
}
