package org.nettyrack.netty.pipeline;

/**
 * User events the dispatcher fires through the pipeline so that handlers nearer the socket
 * (timeouts) learn where a connection is in its request cycle.
 */
public enum ConnectionEvent {
    /** A request head arrived: the header timeout no longer applies. */
    REQUEST_HEAD,
    /** The last response is written and nothing waits: the connection is idle. */
    IDLE,
    /** The server is stopping: close when idle, after the current response otherwise. */
    DRAIN
}
