package org.nettyrack.core.push;

import java.util.concurrent.CompletableFuture;

/**
 * Publish/subscribe between push connections, and from code outside them. {@link LocalPubSub}
 * reaches the connections of this process; the Redis engine (org.nettyrack.redis) reaches
 * every process subscribed to the same Redis server.
 *
 * <p>All methods are thread-safe and none blocks on the network: {@link #publish} hands the
 * message on and returns. Local subscribers hear it on the calling thread, or, when they are
 * {@link Batched}, on their own I/O thread.
 */
public interface PubSub extends AutoCloseable {
    /** Receives a channel's messages; must not block (push connections only queue). */
    @FunctionalInterface
    interface Subscriber {
        void deliver(Message message);

        /**
         * Messages of the channel were lost on their way to this subscriber and cannot be had
         * from the history (an engine's link was down longer than the history covers); head is
         * the newest id, or null. Nothing by default; an event stream is sent a reset event.
         */
        default void gap(String channel, String head) {
        }
    }

    /**
     * A subscriber whose deliveries are cheapest on one particular thread (a push connection's
     * I/O thread). A broadcast hands each such thread one task with all of its subscribers,
     * instead of one hand-off per subscriber.
     */
    interface Batched extends Subscriber {
        /** Where {@link #deliver} should run, or null for the publisher's own thread. */
        java.util.concurrent.Executor executor();
    }

    /**
     * One published message; the data array is shared by every subscriber and never changed.
     * id: where it sits in the channel's history, null when no history is kept.
     */
    record Message(String channel, byte[] data, boolean text, MessageId id) {
        public Message(String channel, byte[] data, boolean text) {
            this(channel, data, text, null);
        }

        public static Message of(String channel, byte[] data) {
            return new Message(channel, data, Utf8.isValid(data));
        }

        public Message withId(MessageId id) {
            return new Message(channel, data, text, id);
        }
    }

    /**
     * What an engine is, for the control endpoint's stats: its kind ({@code local},
     * {@code redis}); for an engine that spans processes, where its peers are (a URL without
     * its password), its link to them ({@code connecting}, {@code up}, {@code down}) and the
     * messages waiting for the link. Null fields do not apply.
     */
    record State(String engine, String url, String link, Integer queued) {
        public static final State LOCAL = new State("local", null, null, null);
    }

    /**
     * For the metrics, an engine that spans processes: how often its link came back after it
     * was lost, and how long the oldest message waiting to be published has waited (ns; 0 when
     * none waits).
     */
    record Flow(long reconnects, long lagNanos) {
    }

    /** This engine's {@link Flow}; null for one inside this process. */
    default Flow flow() {
        return null;
    }

    void subscribe(String channel, Subscriber subscriber);

    /**
     * Completes once messages published to the channel from then on reach this process's
     * subscribers: at once in-process; through Redis, once Redis confirmed the subscription
     * (or at once while Redis is out of reach).
     */
    default CompletableFuture<Void> live(String channel) {
        return CompletableFuture.completedFuture(null);
    }

    void unsubscribe(String channel, Subscriber subscriber);

    /**
     * Where a subscriber that was at position (the last id its client saw, as the client sent
     * it) picks up: the kept messages after it, or {@link Replay.Outcome#RESET} when some are
     * gone, or {@link Replay#LIVE} when this engine keeps no history. An engine whose history
     * is elsewhere (Redis) asks it, waiting at most its timeout: call it from a worker thread,
     * not an I/O thread. Subscribe first, so that nothing falls between the two.
     */
    default Replay resume(String channel, String position) {
        return Replay.LIVE;
    }

    /** Sends data to the channel's subscribers; the caller must not change the array afterwards. */
    void publish(String channel, byte[] data);

    /** The history this engine keeps ({@link HistoryLimits#NONE}: none). */
    default HistoryLimits history() {
        return HistoryLimits.NONE;
    }

    /** A cheap look at the engine; in-process engines need not say more than {@link State#LOCAL}. */
    default State state() {
        return State.LOCAL;
    }

    /** Stops the engine's own threads and connections, if any. */
    @Override
    default void close() {
    }
}
