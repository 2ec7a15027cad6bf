package org.nettyrack.netty.exchange;

import org.nettyrack.core.PushEndpoint;
import org.nettyrack.core.ResponseHeaders;

/**
 * How a request's exchange ended, as {@link NettyResponseSink#done()} reports it to the
 * {@link RackDispatcher} on the event loop: an answer was written, the application accepted
 * an upgrade (which the dispatcher hands to {@code PushUpgrade} or refuses), or it hijacked
 * the connection.
 */
public sealed interface ResponseOutcome {
    /** The last byte of an answer was written (or the write failed); status and body bytes for the access log. */
    record Responded(int status, long bytesSent) implements ResponseOutcome { }

    /**
     * The application accepted a WebSocket or SSE upgrade instead of answering: its status and
     * headers, and the endpoint to drive.
     */
    record Upgraded(int status, ResponseHeaders headers, PushEndpoint endpoint) implements ResponseOutcome { }

    /** The connection is the application's ({@code rack.hijack}); status 0 when it writes its own head. */
    record Hijacked(int status) implements ResponseOutcome { }
}
