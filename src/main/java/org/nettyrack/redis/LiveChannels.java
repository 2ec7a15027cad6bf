package org.nettyrack.redis;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which channels Redis has confirmed on the subscriber connection, so that a subscriber can
 * wait until messages published from then on will reach it ({@link RedisPubSub#live},
 * {@link ClusterPubSub#live}). The subscriber thread confirms (Redis's reply to SUBSCRIBE) and
 * forgets (to UNSUBSCRIBE, or when the connection is lost, after which the next connection
 * confirms again). Whoever waits on a channel when the connection is lost is let go: a link
 * that is down is no reason to hold up the application, and LinkStatus says what happened.
 */
final class LiveChannels {
    private final ConcurrentHashMap<String, CompletableFuture<Void>> byChannel = new ConcurrentHashMap<>();

    /** Completes once Redis confirmed the channel on the current connection. */
    CompletableFuture<Void> of(String channel) {
        return byChannel.computeIfAbsent(channel, c -> new CompletableFuture<>());
    }

    void confirmed(String channel) {
        of(channel).complete(null);
    }

    void unsubscribed(String channel) {
        CompletableFuture<Void> gone = byChannel.remove(channel);
        if (gone != null) {
            gone.complete(null);
        }
    }

    /**
     * Redis dropped the channel by itself (a Cluster slot moved to another master): from now
     * on the channel waits for the new confirmation; whoever waits already goes on waiting.
     */
    void moved(String channel) {
        byChannel.computeIfPresent(channel, (c, future) -> future.isDone() ? null : future);
    }

    /** The connection went away: every channel must be confirmed again; waiters go on. */
    void lost() {
        byChannel.keySet().forEach(this::unsubscribed);
    }
}
