package org.nettyrack.core;

/**
 * The seam between a transport and the application. A transport (Netty today, a servlet
 * container later) parses a request, then calls {@link #handle} on a worker thread, never on
 * an I/O thread. The handler answers through the sink exactly once: either
 * {@link ResponseSink#respond} or {@link ResponseSink#begin} ... {@link ResponseSink#end}.
 */
public interface RackHandler {
    void handle(RackRequest request, ResponseSink response);
}
