package org.nettyrack.core;

/**
 * The application's side of an upgraded connection: the bridge adapts the Rack handler
 * object ({@code env['rack.upgrade']}) to this. {@code PushSession} calls these on worker
 * threads, one at a time per connection and in event order; {@link #onClose} exactly once
 * and last, even when the connection failed before {@link #onOpen}.
 */
public interface PushEndpoint {
    void onOpen(PushConnection connection);

    /** A whole message: UTF-8 text when {@code text}, else binary (SSE never receives). */
    void onMessage(PushConnection connection, byte[] data, boolean text);

    /** The write queue, once backed up behind a slow client, has emptied. */
    void onDrained(PushConnection connection);

    /** The server is stopping; the connection will be closed after this returns. */
    void onShutdown(PushConnection connection);

    void onClose(PushConnection connection);
}
