package org.nettyrack.redis;

import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.nettyrack.core.push.LocalPubSub;

/**
 * Pub/sub across processes through a Redis server: a message published in one nettyrack
 * process reaches the subscribers of its channel in every process using the same Redis.
 *
 * <pre>
 * publish ─→ PublishQueue ─→ Writer thread ─PUBLISH─→ Redis ─→ SubscriberLoop thread ─→ LocalPubSub ─→ subscribers
 * subscribe ─→ LocalPubSub (first/last subscriber of a channel?) ─→ Subscriptions ─→ Writer ─SUBSCRIBE─→ Redis
 * </pre>
 *
 * <p>No method blocks on the network: publish only queues (dropping the oldest message when
 * the queue is full), subscribe only marks the channel for the writer; {@link #live} tells
 * when Redis has confirmed it ({@link LiveChannels}). Local subscribers get
 * a message when Redis sends it back, in the order every other process sees. Channel names
 * go to Redis as UTF-8; message bytes as they are. While Redis is away nothing is delivered,
 * publishing still returns at once, and both threads reconnect with backoff (100 ms doubling
 * to 5 s by default), then subscribe again to every channel with local subscribers. With a
 * {@code redis-sentinel://} URL each connection goes to the master the sentinels name at that
 * moment ({@link SentinelLookup}); after a failover Sentinel disconnects the old master's
 * clients, and the reconnection finds the new master, saying so in one line. With a {@link
 * EngineBuilder#history} each message is kept in a Redis Stream as it is published ({@link
 * RedisHistory}), a subscriber can {@link #resume} from an id, and after a lost link the
 * subscriber thread catches up from the history ({@link CatchUp}).
 *
 * <pre>
 * RedisPubSub engine = RedisPubSub.builder("redis://127.0.0.1:6379").logTo(System.err).start();
 * </pre>
 */
public final class RedisPubSub extends RedisEngine {
    private static final long STOP_MILLIS = 5_000;

    private final Subscriptions subscriptions;
    private final SubscriberLoop subscriber;
    private final Thread subscriberThread;
    private final Thread writerThread;

    private RedisPubSub(Object redis, EngineBuilder.Settings settings) {
        super(redis.toString(), settings);
        this.subscriptions = new Subscriptions(local);
        Connector connector = redis instanceof SentinelUrl sentinel
            ? Connector.through(sentinel, settings.timeoutMillis(), settings.subscriberTimeoutMillis(), status)
            : Connector.to((RedisUrl) redis, settings.timeoutMillis(), settings.subscriberTimeoutMillis());
        RedisHistory kept = keepHistory(RedisHistory.Keys.ONE, HistoryReader.master(connector));
        this.subscriber = new SubscriberLoop(connector, local, new CatchUp(local, historyReader(), status), subscriptions,
            liveChannels, queue, status, settings.backoff(), "nettyrack:pubsub:control:" + UUID.randomUUID());
        ReplicaWait replicas = kept != null && redis instanceof SentinelUrl ? new ReplicaWait(status, settings.timeoutMillis()) : null;
        Writer writer = new Writer(connector, queue, subscriptions, status, settings.backoff(), settings.pingMillis(), kept,
            replicas);
        this.subscriberThread = EngineThreads.daemon(subscriber, "nettyrack-pubsub-subscriber");
        this.writerThread = EngineThreads.daemon(writer, "nettyrack-pubsub-writer");
    }

    /** url: {@code redis://} or {@code rediss://} ({@link RedisUrl}), or {@code redis-sentinel://} ({@link SentinelUrl}). */
    public static EngineBuilder<RedisPubSub> builder(String url) {
        return new EngineBuilder<>(engine(url));
    }

    /** The URL parsed now (IllegalArgumentException when it is wrong), the engine made on start. */
    static Function<EngineBuilder.Settings, RedisPubSub> engine(String url) {
        Object redis = url.startsWith(SentinelUrl.SCHEME) ? SentinelUrl.parse(url) : RedisUrl.parse(url);
        return settings -> new RedisPubSub(redis, settings);
    }

    /** Stops both threads: sends what is queued if connected, waits at most 5 s in all. */
    @Override
    public void close() {
        queue.close();
        subscriber.stop();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(STOP_MILLIS);
        EngineThreads.join(subscriberThread, deadline);
        EngineThreads.join(writerThread, deadline);
        closeHistory();
    }

    @Override
    void changed(String channel) {
        subscriptions.changed(channel);
    }

    @Override
    public State state() {
        return new State("redis", url.toString(), status.state(), queue.size());
    }

    /** Messages waiting for Redis. */
    public int queued() {
        return queue.size();
    }

    @Override
    public String toString() {
        return "RedisPubSub(" + url + ")";
    }
}
