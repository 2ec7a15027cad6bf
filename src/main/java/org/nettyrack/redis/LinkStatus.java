package org.nettyrack.redis;

import java.util.function.Consumer;

/**
 * Whether Redis is reachable, as the engine's two connections find out; one log line when
 * it stops being (however many attempts fail meanwhile) and one when it is back.
 *
 * <pre>
 * nettyrack: pubsub: cannot reach Redis at redis://127.0.0.1:6379 (Connection refused); retrying
 * nettyrack: pubsub: lost Redis at redis://127.0.0.1:6379 (Connection reset); reconnecting
 * nettyrack: pubsub: reconnected to redis://127.0.0.1:6379
 * </pre>
 */
final class LinkStatus {
    static final String PREFIX = "nettyrack: pubsub: ";

    private final String url;
    private final Consumer<String> log;
    private boolean everUp;
    private boolean down;
    private long reconnects;

    /** url: where Redis is, as the lines say it (no password). */
    LinkStatus(Object url, Consumer<String> log) {
        this.url = url.toString();
        this.log = log;
    }

    synchronized void lost(Throwable cause) {
        if (down) {
            return;
        }
        down = true;
        log(everUp
            ? "lost Redis at " + url + " (" + reason(cause) + "); reconnecting"
            : "cannot reach Redis at " + url + " (" + reason(cause) + "); retrying");
    }

    synchronized void up() {
        if (down) {
            log((everUp ? "reconnected to " : "connected to ") + url);
            if (everUp) {
                reconnects++;
            }
        }
        down = false;
        everUp = true;
    }

    /** How many times the link came back after it was lost. */
    synchronized long reconnects() {
        return reconnects;
    }

    synchronized boolean isDown() {
        return down;
    }

    /** {@code connecting} until Redis first answers, then {@code up} or {@code down}. */
    synchronized String state() {
        return down ? "down" : everUp ? "up" : "connecting";
    }

    void log(String line) {
        try {
            log.accept(PREFIX + line);
        } catch (RuntimeException e) {
            // a broken log stream must not stop the engine
        }
    }

    /** The innermost message, which names the actual trouble ("Connection refused"), without a final period. */
    static String reason(Throwable cause) {
        Throwable t = cause;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        String message = t.getMessage() != null ? t.getMessage() : cause.getMessage();
        return message != null ? message.strip().replaceAll("\\.$", "") : t.getClass().getSimpleName();
    }
}
