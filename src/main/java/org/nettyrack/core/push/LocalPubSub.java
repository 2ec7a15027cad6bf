package org.nettyrack.core.push;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;

/**
 * In-process pub/sub: a concurrent map from channel to subscribers. A broadcast to N
 * subscribers is N {@link Subscriber#deliver} calls sharing one {@link Message}: on the
 * publisher's thread, except for {@link Batched} subscribers, which get one task per I/O
 * thread. Also the local fan-out stage of the engines that span processes.
 */
public final class LocalPubSub implements PubSub {
    private final ConcurrentHashMap<String, Set<Subscriber>> channels = new ConcurrentHashMap<>();

    @Override
    public void subscribe(String channel, Subscriber subscriber) {
        add(channel, subscriber); // inside compute: a racing last unsubscribe cannot orphan the set
    }

    /** Like {@link #subscribe}; true when this is the channel's first subscriber. */
    public boolean add(String channel, Subscriber subscriber) {
        boolean[] first = {false};
        channels.compute(channel, (c, set) -> {
            if (set == null) {
                set = ConcurrentHashMap.newKeySet();
                first[0] = true;
            }
            set.add(subscriber);
            return set;
        });
        return first[0];
    }

    @Override
    public void unsubscribe(String channel, Subscriber subscriber) {
        remove(channel, subscriber);
    }

    /** Like {@link #unsubscribe}; true when the channel has no subscribers left. */
    public boolean remove(String channel, Subscriber subscriber) {
        boolean[] emptied = {false};
        channels.computeIfPresent(channel, (c, set) -> {
            set.remove(subscriber);
            if (set.isEmpty()) {
                emptied[0] = true;
                return null;
            }
            return set;
        });
        return emptied[0];
    }

    @Override
    public void publish(String channel, byte[] data) {
        deliver(Message.of(channel, data));
    }

    /**
     * Hands a message to this process's subscribers of its channel: {@link Batched} ones in
     * one task per executor (a broadcast to thousands of connections is a task per I/O thread),
     * the others on this thread.
     */
    public void deliver(Message message) {
        Set<Subscriber> subscribers = channels.get(message.channel());
        if (subscribers == null) {
            return;
        }
        Map<Executor, List<Subscriber>> batches = null;
        for (Subscriber s : subscribers) {
            Executor executor = s instanceof Batched ? ((Batched) s).executor() : null;
            if (executor == null) {
                deliverOne(s, message);
                continue;
            }
            if (batches == null) {
                batches = new IdentityHashMap<>();
            }
            batches.computeIfAbsent(executor, e -> new ArrayList<>()).add(s);
        }
        if (batches != null) {
            batches.forEach((executor, batch) -> {
                try {
                    executor.execute(() -> batch.forEach(s -> deliverOne(s, message)));
                } catch (java.util.concurrent.RejectedExecutionException stopping) {
                    // the I/O thread is shutting down, and its connections with it
                }
            });
        }
    }

    private static void deliverOne(Subscriber subscriber, Message message) {
        try {
            subscriber.deliver(message);
        } catch (RuntimeException e) {
            e.printStackTrace(); // one bad subscriber must not starve the rest
        }
    }

    /** The channels that have subscribers here. */
    public Set<String> channels() {
        return channels.keySet();
    }

    public int subscribers(String channel) {
        Set<Subscriber> subscribers = channels.get(channel);
        return subscribers == null ? 0 : subscribers.size();
    }
}
