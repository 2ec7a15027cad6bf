package org.nettyrack.core.ops;

import java.util.concurrent.CompletableFuture;

/**
 * A stop request from a Java thread (the control endpoint's {@code POST /stop}, on an event
 * loop) to the thread that stops the server, which waits in {@link #await}. The request only
 * completes a future, so no event loop ever runs the stop, or enters Ruby. One-shot: the first
 * reason wins; {@link #close} releases a waiter with null once nobody needs it any more.
 *
 * <pre>
 * control endpoint: stops.request("control /stop")
 * launcher thread:  reason = stops.await()   // "control /stop", or null after close()
 * </pre>
 */
public final class StopRequests {
    private final CompletableFuture<String> reason = new CompletableFuture<>();

    public void request(String why) {
        reason.complete(why);
    }

    public void close() {
        reason.complete(null);
    }

    /** Blocks until {@link #request} or {@link #close}; the reason, or null. */
    public String await() {
        return reason.join();
    }
}
