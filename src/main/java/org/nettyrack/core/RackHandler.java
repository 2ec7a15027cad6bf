package org.nettyrack.core;

import java.util.List;
import java.util.Map;

/**
 * The seam between a transport and the application. A transport (the Netty door, or the
 * servlet door inside a container) parses a request, then calls {@link #handle} on a worker thread, never on
 * an I/O thread. The handler answers through the sink exactly once: either
 * {@link ResponseSink#respond} or {@link ResponseSink#begin} ... {@link ResponseSink#end}.
 */
public interface RackHandler {
    void handle(RackRequest request, ResponseSink response);

    /** The runtime the application runs on, for the metrics ({@code 10.1.1.0}); empty when not known. */
    default String runtimeVersion() {
        return "";
    }

    /**
     * The application's own backtraces (Ruby's, innermost frame first) of the threads running
     * its code, by JVM thread id, for the control endpoint's thread dump. Called on a worker
     * thread, like {@link #handle}. None unless the handler can tell.
     */
    default Map<Long, List<String>> backtraces() {
        return Map.of();
    }
}
