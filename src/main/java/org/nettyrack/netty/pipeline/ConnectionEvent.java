package org.nettyrack.netty.pipeline;

/**
 * User events fired through a connection's pipeline so that handlers nearer the socket (the
 * request timeouts, an HTTP/2 connection's streams handler, push and hijack handlers) learn
 * where the connection is: the body collector fires {@link #REQUEST_HEAD}, the dispatcher
 * {@link #IDLE}, a stopping server ({@link ServerState#drain}) {@link #DRAIN}.
 */
public enum ConnectionEvent {
    /** A request head arrived: the header timeout no longer applies. */
    REQUEST_HEAD,
    /** The last response is written and nothing waits: the connection is idle. */
    IDLE,
    /** The server is stopping: close when idle, after the current response otherwise. */
    DRAIN
}
