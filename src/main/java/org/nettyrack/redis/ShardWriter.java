package org.nettyrack.redis;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiFunction;
import redis.clients.jedis.HostAndPort;

/**
 * The Cluster engine's writer thread, the only one that sends commands: it reads the layout
 * ({@link ClusterLookup}) at start, when a listener or a publish found it changed, and every
 * ping interval; keeps one {@link ShardListener} (and thread) per master; syncs
 * {@link ShardSubscriptions}; pings the listeners' connections; and SPUBLISHes queued messages
 * in batches ({@link ShardPublisher}). Messages a master could not take wait in a second queue
 * and go first after the next look at the layout. Looks come no faster than {@link Backoff}
 * allows while the cluster is in trouble. Publishing threads never wait for it. On close it
 * sends what is queued while masters take it, and stops the listeners.
 */
final class ShardWriter implements Runnable {
    static final int BATCH = 256;

    private final ClusterLookup lookup;
    private final ShardPublisher publisher;
    private final PublishQueue queue;
    private final PublishQueue parked;
    private final ShardSubscriptions subscriptions;
    private final LinkStatus status;
    private final Backoff backoff;
    private final long pingNanos;
    private final long stopNanos;
    /** A listener for a master, given what has the writer look at the layout again. */
    private final BiFunction<HostAndPort, Runnable, ShardListener> listeners;
    private final Map<ShardListener, Thread> running = new ConcurrentHashMap<>();
    private final AtomicBoolean relook = new AtomicBoolean(true);
    private volatile SlotMap map; // written by this thread; read by history readers
    private long relookAt;
    private long pingAt;
    private int parkedToRetry;

    ShardWriter(ClusterLookup lookup, ShardPublisher publisher, PublishQueue queue, PublishQueue parked,
                ShardSubscriptions subscriptions, LinkStatus status, Backoff backoff, long pingMillis, long stopMillis,
                BiFunction<HostAndPort, Runnable, ShardListener> listeners) {
        this.lookup = lookup;
        this.publisher = publisher;
        this.queue = queue;
        this.parked = parked;
        this.subscriptions = subscriptions;
        this.status = status;
        this.backoff = backoff;
        this.pingNanos = TimeUnit.MILLISECONDS.toNanos(pingMillis);
        this.stopNanos = TimeUnit.MILLISECONDS.toNanos(stopMillis);
        this.listeners = listeners;
    }

    /** Any thread: the layout as last read, or null before the first. */
    SlotMap layout() {
        return map;
    }

    /** Any thread: the layout may have changed; the writer reads it again as soon as backoff allows. */
    void relook() {
        relook.set(true);
        queue.wake();
    }

    @Override
    public void run() {
        relookAt = System.nanoTime();
        pingAt = relookAt + pingNanos;
        try {
            while (!queue.isClosed()) {
                step();
            }
            flush();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            stopListeners();
            publisher.close();
        }
    }

    private void step() throws InterruptedException {
        long now = System.nanoTime();
        if (now - pingAt >= 0) {
            subscriptions.ping();
            pingAt = now + pingNanos;
            relook.set(true);
        }
        if (relook.get() && now - relookAt >= 0) {
            look(now);
        }
        subscriptions.sync(map);
        if (map != null && subscriptions.covers(map)) {
            status.up();
            backoff.reset();
        }
        if (map != null && publish()) {
            return;
        }
        long wake = relook.get() && relookAt - pingAt < 0 ? relookAt : pingAt;
        queue.await(map != null, wake - System.nanoTime());
    }

    /** One batch, parked messages first after a look; false when there was nothing to send. */
    private boolean publish() {
        List<PublishQueue.Outgoing> batch;
        if (parkedToRetry > 0) {
            batch = parked.take(Math.min(BATCH, parkedToRetry));
            parkedToRetry = batch.isEmpty() ? 0 : parkedToRetry - batch.size();
        } else {
            batch = queue.take(BATCH);
        }
        if (batch.isEmpty()) {
            return parkedToRetry > 0;
        }
        List<PublishQueue.Outgoing> undelivered = publisher.publish(batch, map);
        if (!undelivered.isEmpty()) {
            undelivered.forEach(parked::offer);
            relook.set(true);
        }
        return true;
    }

    /** Reads the layout; starts a listener for each master without one, stops those of nodes no longer masters. */
    private void look(long now) {
        relook.set(false);
        relookAt = now + TimeUnit.MILLISECONDS.toNanos(backoff.next());
        try {
            map = lookup.refresh();
        } catch (RuntimeException e) {
            status.lost(e);
            relook.set(true);
            return;
        }
        Set<HostAndPort> masters = map.masters();
        running.forEach((listener, thread) -> {
            if (listener.isOver() || !masters.contains(listener.node())) {
                listener.stop();
                running.remove(listener);
            }
        });
        for (HostAndPort master : masters) {
            if (running.keySet().stream().noneMatch(listener -> listener.node().equals(master))) {
                ShardListener listener = listeners.apply(master, this::relook);
                running.put(listener, EngineThreads.daemon(listener, "nettyrack-pubsub-shard-" + master));
            }
        }
        publisher.retain(masters);
        parkedToRetry = parked.size();
    }

    /** On close: what is queued, while every master takes its part. */
    private void flush() {
        while (map != null) {
            List<PublishQueue.Outgoing> batch = parked.take(BATCH);
            if (batch.isEmpty()) {
                batch = queue.take(BATCH);
            }
            if (batch.isEmpty() || !publisher.publish(batch, map).isEmpty()) {
                return;
            }
        }
    }

    private void stopListeners() {
        running.keySet().forEach(ShardListener::stop);
        long deadline = System.nanoTime() + stopNanos;
        running.values().forEach(thread -> EngineThreads.join(thread, deadline));
        running.clear();
    }
}
