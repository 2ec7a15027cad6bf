package org.nettyrack.core;

import java.io.IOException;

/**
 * A transport's half of {@code rack.hijack}: the connection leaves HTTP and becomes a byte
 * stream the application owns. The application needs a real socket (IO.select, nio4r), which
 * a transport's own connection object is not, so the bridge makes a loopback pair: it listens,
 * the transport {@link #connect}s its end to that listener, the bridge accepts the
 * application's end and calls {@link #start}, after which the transport moves bytes both ways
 * between its connection and its end of the pair (half-closes passed on, either side's close
 * closing the other) and touches the connection for nothing else.
 *
 * <p>Made by {@link ResponseSink#hijack}, which commits and finishes the response. Used from
 * the worker thread that runs the application; exactly one of {@link #start} or
 * {@link #cancel} is called.
 */
public interface Hijack {
    /**
     * Connects the transport's end of the pair to the bridge's loopback listener; blocks
     * until connected. Returns the local port connected from, by which the bridge tells the
     * connection it accepts is this one.
     */
    int connect(String host, int port) throws IOException;

    /**
     * The application's end is accepted: bytes start to flow. For a partial hijack the head
     * given to {@link ResponseSink#hijack} is written first, without framing headers.
     */
    void start();

    /** The pair could not be made: the connection (and the transport's end, if any) is closed. */
    void cancel();
}
