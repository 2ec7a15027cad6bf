package org.nettyrack.redis;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import org.nettyrack.core.push.LocalPubSub;
import redis.clients.jedis.BinaryJedisPubSub;

/**
 * Keeps the channels the subscriber connection holds in Redis equal to the channels that
 * have local subscribers. Subscribing threads mark a channel {@link #changed}; the
 * {@link Writer} thread, the only one that writes to the subscriber connection, runs
 * {@link #sync} and sends SUBSCRIBE/UNSUBSCRIBE for the difference. When the
 * {@link SubscriberLoop} has a new connection it {@link #attach}es it, with the channels it
 * subscribed to while connecting, and the next sync compares every channel.
 */
final class Subscriptions {
    /** A subscribed connection's listener, and the channels its first SUBSCRIBE named. */
    record Session(BinaryJedisPubSub listener, Set<String> channels) {
    }

    private static final int CHANNELS_PER_COMMAND = 1000;

    private final LocalPubSub local;
    private final Set<String> dirty = ConcurrentHashMap.newKeySet();
    private final AtomicReference<Session> attached = new AtomicReference<>();
    // Writer thread only:
    private Session session;
    private Set<String> inRedis = new HashSet<>();

    Subscriptions(LocalPubSub local) {
        this.local = local;
    }

    /** The channel gained its first or lost its last local subscriber. */
    void changed(String channel) {
        dirty.add(channel);
    }

    void attach(Session fresh) {
        attached.set(fresh);
    }

    void detach(Session old) {
        attached.compareAndSet(old, null);
    }

    /** Writer thread: brings Redis in line with the local subscribers. */
    void sync() {
        Session current = attached.get();
        if (current != session) {
            session = current;
            inRedis = current == null ? new HashSet<>() : new HashSet<>(current.channels());
            dirty.addAll(inRedis);
            dirty.addAll(local.channels());
        }
        if (dirty.isEmpty()) {
            return;
        }
        List<String> subscribe = new ArrayList<>();
        List<String> unsubscribe = new ArrayList<>();
        for (Iterator<String> it = dirty.iterator(); it.hasNext();) {
            String channel = it.next();
            it.remove(); // before reading the local state, so a change after this read marks it again
            boolean wanted = local.subscribers(channel) > 0;
            if (wanted && !inRedis.contains(channel)) {
                subscribe.add(channel);
            } else if (!wanted && inRedis.contains(channel)) {
                unsubscribe.add(channel);
            }
        }
        if (session == null) {
            return; // the next session's first sync compares every channel
        }
        try {
            for (byte[][] chunk : chunks(subscribe)) {
                session.listener().subscribe(chunk);
            }
            inRedis.addAll(subscribe);
            for (byte[][] chunk : chunks(unsubscribe)) {
                session.listener().unsubscribe(chunk);
            }
            inRedis.removeAll(unsubscribe);
        } catch (RuntimeException e) {
            // the connection broke: the subscriber loop reconnects and attaches a new session
        }
    }

    /** Writer thread: a PING through the subscriber connection, whose PONG shows it is alive. */
    void ping() {
        if (session != null) {
            try {
                session.listener().ping();
            } catch (RuntimeException e) {
                // as in sync
            }
        }
    }

    static byte[] bytes(String channel) {
        return channel.getBytes(StandardCharsets.UTF_8);
    }

    /** The channels as arguments of as many commands as it takes, 1000 a command. */
    static List<byte[][]> chunks(List<String> channels) {
        List<byte[][]> chunks = new ArrayList<>();
        for (int from = 0; from < channels.size(); from += CHANNELS_PER_COMMAND) {
            List<String> part = channels.subList(from, Math.min(channels.size(), from + CHANNELS_PER_COMMAND));
            chunks.add(part.stream().map(Subscriptions::bytes).toArray(byte[][]::new));
        }
        return chunks;
    }
}
