package org.nettyrack.core.config;

/**
 * Limits of a push connection (a WebSocket or an SSE stream an app took over with
 * {@code rack.upgrade}): the largest message received, the bytes queued for a slow client, and
 * how long the connection may idle. Read by both doors when they upgrade a request.
 *
 * @param maxMessageSize largest WebSocket message received, fragments joined; closed with 1009 beyond
 * @param maxPushQueue bytes a push connection may have queued for a slow client; closed with 1008 beyond
 * @param pushTimeoutMillis push idle time: after this long without traffic a WebSocket is pinged
 *     (an SSE stream gets a comment line); a WebSocket that sends nothing for twice this long is closed
 * @param pushSendBuffer the socket send buffer of a push connection on its own connection
 *     (SO_SNDBUF; the kernel doubles it): what a client that stops reading holds in the kernel
 *     before writes queue against maxPushQueue (left to the OS's autotuning, Linux holds up to
 *     4 MB); 0 leaves it to the OS. The Netty door only: a container keeps its sockets
 */
public record PushSettings(int maxMessageSize, long maxPushQueue, long pushTimeoutMillis, int pushSendBuffer) {
    public static final PushSettings DEFAULTS = new PushSettings(1024 * 1024, 1024 * 1024, 40_000, 64 * 1024);

    public void check() {
        Check.that(maxMessageSize >= 125, "max message size must be at least 125 bytes, got " + maxMessageSize);
        Check.that(maxPushQueue >= 1024, "max push queue must be at least 1024 bytes, got " + maxPushQueue);
        Check.that(pushTimeoutMillis >= 100, "push timeout must be at least 100 ms");
        Check.that(pushSendBuffer == 0 || pushSendBuffer >= 4096,
            "push send buffer must be 0 (the OS's) or at least 4096 bytes, got " + pushSendBuffer);
    }
}
