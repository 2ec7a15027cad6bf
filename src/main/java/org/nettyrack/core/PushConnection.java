package org.nettyrack.core;

/**
 * The transport's side of an upgraded connection (a WebSocket, or an SSE stream), safe to use
 * from any thread. Writes never block: they queue, and the transport sends them in order.
 * A client that stops reading cannot grow the queue past the configured limit
 * ({@link org.nettyrack.core.config.PushSettings#maxPushQueue()}): the write that would pass it
 * returns false and the connection is closed (WebSocket status 1008).
 *
 * <p>How a transport builds one (the Netty door's is {@code NettyPushConnection}; the servlet
 * door's, {@code WebSocketConnection} and {@code EventStreamConnection}, sit on a Jakarta
 * WebSocket session and an async response): it counts writes in
 * and out with a {@code SendBacklog} (the limit, 1008, {@code on_drained}), closes with the
 * {@code PushClose} codes, keeps its timeout in an {@code IdlePolicy} and asks it what to do
 * when its idle timers fire, and hands {@link #schedule} to the connection's
 * {@code PushSession}, to which it also reports what arrives. {@code PushHead} gives the
 * response head, {@link Upgrade#of} which requests qualify, {@code UpgradeRefusal} what an
 * upgrade that cannot start gets.
 */
public interface PushConnection {
    Upgrade protocol();

    /**
     * Queues one message and returns at once. WebSocket: a text frame when {@code text}, else
     * binary. SSE: bytes of already formatted events ({@code SseEvent}). The array becomes the
     * transport's: the caller must not change it afterwards. False once closed or closing.
     */
    boolean send(byte[] data, boolean text);

    /** Closes after the queued data is sent: WebSocket status 1000, or the end of the SSE stream. */
    void close();

    /**
     * The server, or the application runtime this connection belongs to, is going:
     * {@code on_shutdown}, then a close with 1001 (the end of an SSE stream), in callback order.
     */
    void shutdown();

    /** True until {@link #close} was called or the connection ended. */
    boolean isOpen();

    /** Writes queued and not yet handed to the socket; -1 once closed. */
    int pending();

    /** Idle time before a ping (WebSocket) or keep-alive comment (SSE). */
    long timeoutMillis();

    void timeoutMillis(long millis);

    /**
     * The thread that owns this connection's writes, where {@link #send} is cheapest (no
     * hand-off), for batching a broadcast; null when there is none.
     */
    default java.util.concurrent.Executor writer() {
        return null;
    }

    /** Runs a task on a worker thread in this connection's callback order. */
    void schedule(Runnable task);
}
