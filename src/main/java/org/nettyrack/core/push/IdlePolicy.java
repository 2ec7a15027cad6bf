package org.nettyrack.core.push;

import org.nettyrack.core.Upgrade;

/**
 * When an idle push connection gets a keep-alive and when a silent one is given up, for one
 * connection's timeout ({@code --push-timeout}, changed by {@code client.timeout =}):
 * <ul>
 * <li>nothing written for one timeout: a keep-alive (WebSocket ping, SSE comment), which
 * proxies see as traffic;</li>
 * <li>a WebSocket client silent for one timeout is pinged; silent for another, it is closed
 * with {@link PushClose#IDLE} (1001). A client the server stopped reading from (the
 * application is behind) is not silent. SSE clients never send, so only writes are watched.</li>
 * </ul>
 * The transport runs the timers ({@link #readTimeoutMillis}, {@link #writeTimeoutMillis}) and
 * asks {@link #silent} and {@link #quiet} what to do when they fire; {@link #heard} restarts
 * the silence. The timeout may be read and changed from any thread; the silence is the
 * transport's timer thread's alone.
 */
public final class IdlePolicy {
    /** The shortest timeout a connection takes. */
    public static final long MIN_TIMEOUT_MILLIS = 100;
    private static final long MAX_CLOSE_WAIT_MILLIS = 5_000;

    /** What the transport does when a timer fires. */
    public enum Action {
        NOTHING,
        /** A WebSocket ping, or an SSE comment ({@link SseEvent#COMMENT}). */
        KEEP_ALIVE,
        /** Close with {@link PushClose#IDLE}. */
        CLOSE
    }

    private final Upgrade protocol;
    private volatile long timeoutMillis;
    private boolean pinged;

    public IdlePolicy(Upgrade protocol, long timeoutMillis) {
        this.protocol = protocol;
        this.timeoutMillis = checked(timeoutMillis);
    }

    public long timeoutMillis() {
        return timeoutMillis;
    }

    /** {@code client.timeout =}; the transport then restarts its timers with the new values. */
    public void timeoutMillis(long millis) {
        timeoutMillis = checked(millis);
    }

    /** How long the client may stay silent before {@link #silent} is asked; 0: never (SSE). */
    public long readTimeoutMillis() {
        return protocol == Upgrade.WEBSOCKET ? timeoutMillis : 0;
    }

    /** How long nothing may be written before {@link #quiet} is asked. */
    public long writeTimeoutMillis() {
        return timeoutMillis;
    }

    /**
     * How long a closing WebSocket waits for the client's close frame before the connection
     * is dropped: the timeout, at most 5 s.
     */
    public long closeWaitMillis() {
        return Math.min(MAX_CLOSE_WAIT_MILLIS, timeoutMillis);
    }

    /** Something arrived from the client (any frame, a pong included). */
    public void heard() {
        pinged = false;
    }

    /** The client has been silent for {@link #readTimeoutMillis}; {@code readingPaused}: by the server's choice. */
    public Action silent(boolean readingPaused) {
        if (readingPaused) {
            return Action.NOTHING;
        }
        if (pinged) {
            return Action.CLOSE;
        }
        pinged = true;
        return Action.KEEP_ALIVE;
    }

    /** Nothing has been written for {@link #writeTimeoutMillis}. */
    public Action quiet() {
        return Action.KEEP_ALIVE;
    }

    private static long checked(long millis) {
        if (millis < MIN_TIMEOUT_MILLIS) {
            throw new IllegalArgumentException("timeout must be at least 0.1 s, got " + millis + " ms");
        }
        return millis;
    }
}
