package org.nettyrack.core;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Where a handler writes its answer; one sink per request, used from one worker thread.
 * The transport owns framing: it picks Content-Length, chunked encoding or close-delimited
 * bodies, drops body bytes for HEAD, 204 and 304, and keeps responses in request order.
 *
 * <p>Either call {@link #respond} once, or {@link #begin}, any number of {@link #write} /
 * {@link #sendFile}, then {@link #end}. {@link #begin} only records the head: it leaves with
 * the first body byte, a file, or {@link #end}. Until then nothing is {@link #committed} and a
 * failure may still replace the response with {@link #respond} (an error page). Once
 * committed, a failure can only {@link #abort} the connection: the status line is gone.
 * {@link FailureResponse} is the one place that makes that choice.
 */
public interface ResponseSink {
    /** Whether a response with this status never has a body (1xx, 204, 304), whatever it says of one. */
    static boolean bodiless(int status) {
        return status == 204 || status == 304 || status < 200;
    }

    /** A whole response whose body is known: the common, fastest case. */
    void respond(int status, ResponseHeaders headers, byte[] body, int offset, int length);

    /**
     * Starts a streamed response; the head is sent with the first body bytes or at {@link #end}.
     * {@code contentLength} is the exact body length, or -1 when unknown (a Content-Length
     * header from the application counts as known).
     */
    void begin(int status, ResponseHeaders headers, long contentLength);

    /**
     * Sends body bytes, copying them; blocks while the client is not reading, up to the write
     * timeout. Throws when the client has gone or the timeout passed.
     */
    void write(byte[] bytes, int offset, int length) throws IOException;

    /** Sends a region of a file without copying it through the heap where the transport can. */
    void sendFile(Path file, long offset, long length) throws IOException;

    /**
     * Whether the transport sends the file an application names in an {@code x-sendfile}
     * response header (the env announces it as {@code HTTP_X_SENDFILE_TYPE}).
     */
    default boolean honoursSendfile() {
        return false;
    }

    /** Whether {@link #earlyHints} can still send a 103: allowed, HTTP/1.1, nothing sent yet. */
    default boolean acceptsEarlyHints() {
        return false;
    }

    /**
     * Sends an informational 103 (Early Hints, RFC 8297) with these headers before the final
     * response; does nothing when {@link #acceptsEarlyHints} is false.
     */
    default void earlyHints(ResponseHeaders headers) throws IOException {
    }

    /** Completes a streamed response. */
    void end();

    /** Gives up on a started response: the connection is closed. */
    void abort();

    /**
     * Instead of a response: switches the connection to push, as {@link RackRequest#upgrade()}
     * announced (WebSocket: 101 and the opening handshake; SSE: {@code status} with an
     * event-stream body), sending the application's headers, then drives the endpoint. Returns
     * at once; the endpoint's callbacks come from the connection's {@link
     * org.nettyrack.core.push.PushSession}. Commits the response.
     */
    void upgrade(int status, ResponseHeaders headers, org.nettyrack.core.PushEndpoint endpoint);

    /**
     * Instead of a response: gives the connection to the application ({@code rack.hijack}),
     * when {@link RackRequest#hijackable()}. {@code headers} null is a full hijack (the
     * transport writes nothing more); otherwise a partial one, whose head ({@code status},
     * {@code headers} without Content-Length or Transfer-Encoding) {@link Hijack#start} writes
     * first. Commits and finishes the response; throws {@link IllegalStateException} once
     * committed, {@link UnsupportedOperationException} where the transport cannot.
     */
    default Hijack hijack(int status, ResponseHeaders headers) {
        throw new UnsupportedOperationException("this transport cannot hand its connection to the application");
    }

    /**
     * Whether the response has been handed to the transport (by {@link #respond},
     * {@link #upgrade}, or {@link #begin} followed by body bytes, a file or {@link #end}), so
     * that it can no longer be replaced by an error response.
     */
    boolean committed();

    /**
     * Whether the response is complete: {@link #respond}, {@link #end}, {@link #abort} or
     * {@link #upgrade} was called. A handler returns with its response finished
     * ({@link FailureResponse#serve} sees to it).
     */
    boolean finished();
}
