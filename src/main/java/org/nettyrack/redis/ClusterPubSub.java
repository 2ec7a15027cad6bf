package org.nettyrack.redis;

import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.nettyrack.core.push.LocalPubSub;
import org.nettyrack.core.push.PubSub;
import redis.clients.jedis.Connection;
import redis.clients.jedis.HostAndPort;

/**
 * Pub/sub across processes through a Redis Cluster (Redis 7+), on sharded pub/sub: a channel
 * lives in a slot as a key does, and its messages travel only through the master that owns
 * the slot (SPUBLISH, SSUBSCRIBE), so each master carries its share of the channels rather
 * than every message.
 *
 * <pre>
 * publish ─→ PublishQueue ─→ ShardWriter thread ─SPUBLISH─→ the slot's master ─→ its ShardListener thread ─→ LocalPubSub ─→ subscribers
 * subscribe ─→ LocalPubSub (first/last subscriber?) ─→ ShardSubscriptions ─→ ShardWriter ─SSUBSCRIBE─→ the slot's master
 * </pre>
 *
 * <p>The layout comes from the URL's seed nodes ({@link ClusterLookup}); each master gets one
 * subscriber connection and thread ({@link ShardListener}) and one publishing connection. When
 * a slot moves (resharding: Redis drops its channels' subscribers; a publish is answered
 * MOVED) or a master fails (its connections break; a replica takes over), the engine reads the
 * layout again with backoff, says what moved in one line, and subscribes the channels again
 * on their new master. As with {@link RedisPubSub}, no method blocks on the network: publish
 * only queues, subscribe only marks the channel; {@link #live} completes once the channel's
 * master confirmed it. With a history ({@link EngineBuilder#history}) each slot's master keeps
 * its channels' messages ({@link RedisHistory.Keys#SLOTS}): ids order the channels of a slot.
 *
 * <pre>
 * PubSub engine = EngineBuilder.of("redis-cluster://10.0.0.5:6379,10.0.0.6:6379").logTo(System.err).start();
 * </pre>
 */
public final class ClusterPubSub extends RedisEngine {
    private static final long STOP_MILLIS = 5_000;

    private final ShardSubscriptions subscriptions;
    private final PublishQueue parked;
    private final ShardWriter writer;
    private final Thread writerThread;

    private ClusterPubSub(ClusterUrl cluster, EngineBuilder.Settings settings) {
        super(cluster.toString(), settings);
        this.subscriptions = new ShardSubscriptions(local);
        Connector connector = Connector.toCluster(cluster, settings.timeoutMillis(), settings.subscriberTimeoutMillis());
        this.parked = new PublishQueue(settings.queueCapacity(), status);
        RedisHistory kept = keepHistory(RedisHistory.Keys.SLOTS, slotOwner(cluster, connector, this::layout));
        CatchUp catchUp = new CatchUp(local, historyReader(), status);
        this.writer = new ShardWriter(new ClusterLookup(cluster, connector, status),
            new ShardPublisher(connector, status, kept), queue, parked, subscriptions, status, settings.backoff(),
            settings.pingMillis(), STOP_MILLIS / 2,
            (master, relook) -> new ShardListener(master, connector, catchUp, subscriptions, liveChannels, status, queue, relook));
        this.writerThread = EngineThreads.daemon(writer, "nettyrack-pubsub-cluster-writer");
    }

    /** url: {@code redis-cluster://} ({@link ClusterUrl}). */
    public static EngineBuilder<ClusterPubSub> builder(String url) {
        return new EngineBuilder<>(engine(url));
    }

    /** The URL parsed now (IllegalArgumentException when it is wrong), the engine made on start. */
    static Function<EngineBuilder.Settings, ClusterPubSub> engine(String url) {
        ClusterUrl cluster = ClusterUrl.parse(url);
        return settings -> new ClusterPubSub(cluster, settings);
    }

    @Override
    void changed(String channel) {
        subscriptions.changed(channel);
    }

    /** The layout the writer read last (for the history reader). */
    private SlotMap layout() {
        return writer.layout();
    }

    /**
     * A channel's history is on the master of its slot, as the writer last saw the layout;
     * before the first look, a seed node, whose MOVED names the master ({@link HistoryReader}).
     */
    private static HistoryReader.Route slotOwner(ClusterUrl cluster, Connector connector,
                                                 java.util.function.Supplier<SlotMap> layout) {
        HostAndPort seed = cluster.seeds().get(0).hostAndPort();
        return new HistoryReader.Route() {
            @Override
            public Object node(String channel) {
                SlotMap map = layout.get();
                HostAndPort owner = map == null ? null : map.owner(SlotMap.slot(channel));
                return owner == null ? seed : owner;
            }

            @Override
            public Connection open(Object node) {
                return connector.connect((HostAndPort) node);
            }
        };
    }

    /** Stops every thread: sends what is queued while the masters take it, waits at most 5 s in all. */
    @Override
    public void close() {
        queue.close();
        EngineThreads.join(writerThread, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(STOP_MILLIS));
        closeHistory();
    }

    @Override
    public State state() {
        return new State("redis-cluster", url, status.state(), queued());
    }

    /** Messages waiting for a master. */
    public int queued() {
        return queue.size() + parked.size();
    }

    @Override
    public String toString() {
        return "ClusterPubSub(" + url + ")";
    }
}
