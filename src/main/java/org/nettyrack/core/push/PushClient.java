package org.nettyrack.core.push;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.nettyrack.core.PushConnection;
import org.nettyrack.core.Upgrade;

/**
 * What the application's {@code client} object does, without Ruby: writes (SSE data wrapped
 * as events), and the connection's subscriptions. A plain subscription writes each message
 * straight to the connection, on the connection's I/O thread; one with a handler runs it in the
 * connection's callback order. Subscriptions end with the connection ({@link #closed}).
 */
public final class PushClient {
    private final PushConnection connection;
    private final PubSub pubsub;
    /** The longest {@link #subscribe} waits for the engine to confirm a channel. */
    static final long LIVE_WAIT_MILLIS = 2_000;

    private final Map<String, PubSub.Subscriber> subscriptions = new ConcurrentHashMap<>();

    public PushClient(PushConnection connection, PubSub pubsub) {
        this.connection = connection;
        this.pubsub = pubsub;
    }

    public PushConnection connection() {
        return connection;
    }

    /** WebSocket: a text or binary message. SSE: one {@code data:} event. */
    public boolean write(byte[] data, boolean text) {
        if (connection.protocol() == Upgrade.SSE) {
            return connection.send(SseEvent.data(data), true);
        }
        return connection.send(data, text);
    }

    /** SSE only: an event with fields; see {@link SseEvent#format}. */
    public boolean writeEvent(String id, String event, long retryMillis, byte[] data) {
        if (connection.protocol() != Upgrade.SSE) {
            throw new IllegalStateException("id, event and retry are Server-Sent Event fields; this is a WebSocket");
        }
        return connection.send(SseEvent.format(id, event, retryMillis, data), true);
    }

    /**
     * Subscribes this connection to a channel, replacing an earlier subscription to it.
     * Without a handler each message is written to the client as is; with one, the handler
     * gets it on a worker, in callback order, instead. No-op once the connection closed.
     * Returns once what is published from then on reaches the connection ({@link PubSub#live}:
     * through Redis, once Redis confirmed the channel; at most {@link #LIVE_WAIT_MILLIS}), so an
     * application may tell its client it is subscribed (a client that reconnected, after a hot
     * restart, misses nothing published after that).
     */
    public void subscribe(String channel, PubSub.Subscriber handler) {
        subscribe(channel, handler, null);
    }

    /**
     * Like {@link #subscribe(String, PubSub.Subscriber)}, from a position: with position (the
     * last id the client saw) and a history kept, the kept messages after it come first, then
     * live ones, in order and none twice. When the history cannot cover the gap the outcome is
     * {@link Replay.Outcome#RESET}, and an event stream without a handler is sent an event
     * {@code reset} (data: the channel, id: the newest id) before the live messages. Returns
     * the outcome, or null when the connection is closed.
     */
    public Replay.Outcome subscribe(String channel, PubSub.Subscriber handler, String position) {
        if (!connection.isOpen()) {
            return null;
        }
        PubSub.Subscriber target = handler == null
            ? new Direct()
            : message -> connection.schedule(() -> handler.deliver(message));
        Resumption resumption = position == null ? null : new Resumption(target);
        PubSub.Subscriber subscriber = resumption == null ? target : resumption;
        PubSub.Subscriber previous = subscriptions.put(channel, subscriber);
        if (previous != null) {
            pubsub.unsubscribe(channel, previous);
        }
        pubsub.subscribe(channel, subscriber);
        if (!connection.isOpen()) {
            unsubscribe(channel); // closed meanwhile: closed() may have missed this one
            return null;
        }
        awaitLive(channel);
        if (resumption == null) {
            return Replay.Outcome.LIVE;
        }
        Replay replay = pubsub.resume(channel, position);
        resumption.start(replay, replay.outcome() == Replay.Outcome.RESET && handler == null
            ? () -> reset(channel, replay.head())
            : () -> { });
        return replay.outcome();
    }

    /** An event stream's word that its position could not be resumed: event reset, data the channel. */
    private void reset(String channel, String head) {
        if (connection.protocol() == Upgrade.SSE) {
            connection.send(SseEvent.format(head, "reset", -1, channel.getBytes(java.nio.charset.StandardCharsets.UTF_8)), true);
        }
    }

    private void awaitLive(String channel) {
        try {
            pubsub.live(channel).get(LIVE_WAIT_MILLIS, TimeUnit.MILLISECONDS);
        } catch (TimeoutException | ExecutionException e) {
            // Redis slow to confirm: subscribed all the same, messages come once it has
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** True when the connection was subscribed to the channel. */
    public boolean unsubscribe(String channel) {
        PubSub.Subscriber subscriber = subscriptions.remove(channel);
        if (subscriber != null) {
            pubsub.unsubscribe(channel, subscriber);
        }
        return subscriber != null;
    }

    public void publish(String channel, byte[] data) {
        pubsub.publish(channel, data);
    }

    /** A plain subscription: each message written to the client, on the connection's writer. */
    private final class Direct implements PubSub.Batched {
        @Override
        public void deliver(PubSub.Message message) {
            if (connection.protocol() == Upgrade.SSE) {
                connection.send(SseEvent.of(message), true); // one array for every subscriber on this thread
            } else {
                connection.send(message.data(), message.text());
            }
        }

        @Override
        public void gap(String channel, String head) {
            reset(channel, head);
        }

        @Override
        public java.util.concurrent.Executor executor() {
            return connection.writer();
        }
    }

    /** Ends every subscription; the transport's session calls this when the connection ends. */
    public void closed() {
        for (String channel : subscriptions.keySet()) {
            unsubscribe(channel);
        }
    }
}
