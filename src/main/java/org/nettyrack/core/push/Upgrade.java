package org.nettyrack.core.push;

/**
 * What a request may be switched to, as the transport detected it before the application
 * runs; the bridge reports it as {@code env['rack.upgrade?']}.
 */
public enum Upgrade {
    /** A plain HTTP request. */
    NONE,
    /** A valid RFC 6455 opening handshake (GET, Upgrade: websocket, a key, version 13). */
    WEBSOCKET,
    /** A GET whose Accept names {@code text/event-stream}. */
    SSE;

    /** The Rack name ({@code :websocket}, {@code :sse}), or null for {@link #NONE}. */
    public String rackName() {
        return this == NONE ? null : name().toLowerCase(java.util.Locale.ROOT);
    }
}
