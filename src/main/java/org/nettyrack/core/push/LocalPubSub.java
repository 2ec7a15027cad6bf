package org.nettyrack.core.push;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import org.nettyrack.core.ErrorLog;

/**
 * In-process pub/sub: a concurrent map from channel to its subscribers. A broadcast to N
 * subscribers is N {@link Subscriber#deliver} calls sharing one {@link Message}: on the
 * publisher's thread, except for {@link Batched} subscribers, which get one task per I/O
 * thread. Subscribers are grouped by that thread when they subscribe, so a publish does no
 * sorting. Also the local fan-out stage of the engines that span processes. A subscriber that
 * throws is reported to the error log, and the others still get the message. With {@link
 * HistoryLimits} it keeps each channel's last messages in a {@link MemoryHistory}, and a
 * subscriber can {@link #resume} from an id.
 */
public final class LocalPubSub implements PubSub {
    private final ConcurrentHashMap<String, Subscribers> channels = new ConcurrentHashMap<>();
    private final ErrorLog errorLog;
    private final MemoryHistory history;
    private final HistoryLimits limits;

    /** Reporting to stderr. */
    public LocalPubSub() {
        this(ErrorLog.stderr());
    }

    public LocalPubSub(ErrorLog errorLog) {
        this(errorLog, HistoryLimits.NONE);
    }

    /** Keeping a history within limits (none when {@link HistoryLimits#NONE}). */
    public LocalPubSub(ErrorLog errorLog, HistoryLimits limits) {
        this.errorLog = errorLog;
        this.history = limits.on() ? new MemoryHistory(limits) : null;
        this.limits = limits;
    }

    @Override
    public HistoryLimits history() {
        return limits;
    }

    /**
     * One channel's subscribers: those delivered to on the publisher's thread, and the others
     * by the executor they are delivered on. Changed only inside {@code channels.compute}, so
     * one change at a time per channel; read by publishers at any time.
     */
    private static final class Subscribers {
        final Set<Subscriber> inline = ConcurrentHashMap.newKeySet();
        final ConcurrentHashMap<Executor, Set<Subscriber>> batched = new ConcurrentHashMap<>();

        void add(Subscriber s) {
            Executor executor = executor(s);
            if (executor == null) {
                inline.add(s);
            } else {
                batched.computeIfAbsent(executor, e -> ConcurrentHashMap.newKeySet()).add(s);
            }
        }

        void remove(Subscriber s) {
            Executor executor = executor(s);
            if (executor == null) {
                inline.remove(s);
            } else {
                batched.computeIfPresent(executor, (e, set) -> set.remove(s) && set.isEmpty() ? null : set);
            }
        }

        boolean isEmpty() {
            return inline.isEmpty() && batched.isEmpty();
        }

        int size() {
            int size = inline.size();
            for (Set<Subscriber> set : batched.values()) {
                size += set.size();
            }
            return size;
        }

        private static Executor executor(Subscriber s) {
            return s instanceof Batched ? ((Batched) s).executor() : null;
        }
    }

    @Override
    public void subscribe(String channel, Subscriber subscriber) {
        add(channel, subscriber); // inside compute: a racing last unsubscribe cannot orphan the set
    }

    /** Like {@link #subscribe}; true when this is the channel's first subscriber. */
    public boolean add(String channel, Subscriber subscriber) {
        boolean[] first = {false};
        channels.compute(channel, (c, subscribers) -> {
            if (subscribers == null) {
                subscribers = new Subscribers();
                first[0] = true;
            }
            subscribers.add(subscriber);
            return subscribers;
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
        channels.computeIfPresent(channel, (c, subscribers) -> {
            subscribers.remove(subscriber);
            if (subscribers.isEmpty()) {
                emptied[0] = true;
                return null;
            }
            return subscribers;
        });
        return emptied[0];
    }

    @Override
    public void publish(String channel, byte[] data) {
        if (history == null) {
            deliver(Message.of(channel, data));
        } else {
            history.keep(Message.of(channel, data), this::deliver);
        }
    }

    @Override
    public Replay resume(String channel, String position) {
        return history == null ? Replay.LIVE : history.resume(channel, position);
    }

    /**
     * Hands a message to this process's subscribers of its channel: {@link Batched} ones in
     * one task per executor (a broadcast to thousands of connections is a task per I/O thread),
     * the others on this thread.
     */
    public void deliver(Message message) {
        Subscribers subscribers = channels.get(message.channel());
        if (subscribers == null) {
            return;
        }
        for (Subscriber s : subscribers.inline) {
            deliverOne(s, message);
        }
        subscribers.batched.forEach((executor, batch) -> {
            try {
                executor.execute(() -> batch.forEach(s -> deliverOne(s, message)));
            } catch (java.util.concurrent.RejectedExecutionException stopping) {
                // the I/O thread is shutting down, and its connections with it
            }
        });
    }

    /** Tells the channel's subscribers here that messages were lost ({@link Subscriber#gap}), as {@link #deliver} does. */
    public void gap(String channel, String head) {
        Subscribers subscribers = channels.get(channel);
        if (subscribers == null) {
            return;
        }
        for (Subscriber s : subscribers.inline) {
            s.gap(channel, head);
        }
        subscribers.batched.forEach((executor, batch) -> {
            try {
                executor.execute(() -> batch.forEach(s -> s.gap(channel, head)));
            } catch (java.util.concurrent.RejectedExecutionException stopping) {
                // the I/O thread is shutting down, and its connections with it
            }
        });
    }

    private void deliverOne(Subscriber subscriber, Message message) {
        try {
            subscriber.deliver(message);
        } catch (RuntimeException e) {
            errorLog.report("a subscriber of " + message.channel() + " failed", e); // the rest still hear it
        }
    }

    /** The channels that have subscribers here. */
    public Set<String> channels() {
        return channels.keySet();
    }

    public int subscribers(String channel) {
        Subscribers subscribers = channels.get(channel);
        return subscribers == null ? 0 : subscribers.size();
    }
}
