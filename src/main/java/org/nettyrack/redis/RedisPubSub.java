package org.nettyrack.redis;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.nettyrack.core.ErrorLog;
import org.nettyrack.core.push.HistoryLimits;
import org.nettyrack.core.push.LocalPubSub;
import org.nettyrack.core.push.PubSub;
import org.nettyrack.core.push.Replay;

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
 * Builder#history} each message is kept in a Redis Stream as it is published ({@link
 * RedisHistory}), and a subscriber can {@link #resume} from an id.
 *
 * <pre>
 * RedisPubSub engine = RedisPubSub.builder("redis://127.0.0.1:6379").logTo(System.err).start();
 * </pre>
 */
public final class RedisPubSub implements PubSub {
    private static final long STOP_MILLIS = 5_000;

    private final String url;
    private final LocalPubSub local;
    private final Subscriptions subscriptions;
    private final PublishQueue queue;
    private final LinkStatus status;
    private final LiveChannels liveChannels = new LiveChannels();
    private final SubscriberLoop subscriber;
    private final Thread subscriberThread;
    private final Thread writerThread;
    private final HistoryReader history; // null: none kept
    private final HistoryLimits limits;

    private RedisPubSub(Builder b) {
        this.url = b.url.toString();
        this.local = new LocalPubSub(b.errorLog);
        this.subscriptions = new Subscriptions(local);
        this.status = new LinkStatus(url, b.log);
        int subscriberTimeout = (int) Math.min(Integer.MAX_VALUE, 3 * b.pingMillis);
        Connector connector = b.url instanceof SentinelUrl sentinel
            ? Connector.through(sentinel, b.timeoutMillis, subscriberTimeout, status)
            : Connector.to((RedisUrl) b.url, b.timeoutMillis, subscriberTimeout);
        this.queue = new PublishQueue(b.queueCapacity, status);
        this.limits = b.history;
        RedisHistory kept = b.history.on() ? new RedisHistory(b.history) : null;
        this.history = kept == null ? null : new HistoryReader(connector, kept);
        this.subscriber = new SubscriberLoop(connector, local, new CatchUp(local, history, status), subscriptions,
            liveChannels, queue, status, new Backoff(b.minBackoffMillis, b.maxBackoffMillis),
            "nettyrack:pubsub:control:" + UUID.randomUUID());
        Writer writer = new Writer(connector, queue, subscriptions, status,
            new Backoff(b.minBackoffMillis, b.maxBackoffMillis), b.pingMillis, kept);
        this.subscriberThread = daemon(subscriber, "nettyrack-pubsub-subscriber");
        this.writerThread = daemon(writer, "nettyrack-pubsub-writer");
    }

    /** url: {@code redis://} or {@code rediss://} ({@link RedisUrl}), or {@code redis-sentinel://} ({@link SentinelUrl}). */
    public static Builder builder(String url) {
        return new Builder(url.startsWith(SentinelUrl.SCHEME) ? SentinelUrl.parse(url) : RedisUrl.parse(url));
    }

    @Override
    public void subscribe(String channel, Subscriber subscriber) {
        if (local.add(channel, subscriber)) {
            subscriptions.changed(channel);
            queue.wake();
        }
    }

    @Override
    public CompletableFuture<Void> live(String channel) {
        return status.isDown() ? CompletableFuture.completedFuture(null) : liveChannels.of(channel);
    }

    @Override
    public void unsubscribe(String channel, Subscriber subscriber) {
        if (local.remove(channel, subscriber)) {
            subscriptions.changed(channel);
            queue.wake();
        }
    }

    @Override
    public HistoryLimits history() {
        return limits;
    }

    /**
     * Reads the channel's history in Redis (waiting at most the timeout); a Redis that cannot
     * be asked is a {@link Replay.Outcome#RESET}, said in one line: what the client missed is
     * not known.
     */
    @Override
    public Replay resume(String channel, String position) {
        if (history == null) {
            return Replay.LIVE;
        }
        try {
            return history.resume(channel, position);
        } catch (RuntimeException e) {
            status.log("cannot read the history of " + channel + " (" + e.getMessage() + "); the client is told to start over");
            return new Replay(Replay.Outcome.RESET, java.util.List.of(), null);
        }
    }

    @Override
    public void publish(String channel, byte[] data) {
        queue.offer(new PublishQueue.Outgoing(Subscriptions.bytes(channel), data));
    }

    /** Stops both threads: sends what is queued if connected, waits at most 5 s in all. */
    @Override
    public void close() {
        queue.close();
        subscriber.stop();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(STOP_MILLIS);
        join(subscriberThread, deadline);
        join(writerThread, deadline);
        if (history != null) {
            history.close();
        }
    }

    @Override
    public State state() {
        return new State("redis", url.toString(), status.state(), queue.size());
    }

    /** Messages waiting for Redis. */
    public int queued() {
        return queue.size();
    }

    /** Where Redis is, as given (the password hidden). */
    public String url() {
        return url;
    }

    @Override
    public String toString() {
        return "RedisPubSub(" + url + ")";
    }

    private static Thread daemon(Runnable loop, String name) {
        Thread thread = new Thread(loop, name);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    private static void join(Thread thread, long deadline) {
        try {
            thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The engine's settings; {@link #start} connects (in the background) and returns it. */
    public static final class Builder {
        /** A RedisUrl or a SentinelUrl. */
        private final Object url;
        private int queueCapacity = 10_000;
        private Consumer<String> log = line -> { };
        private ErrorLog errorLog = ErrorLog.stderr();
        private long minBackoffMillis = 100;
        private long maxBackoffMillis = 5_000;
        private long pingMillis = 10_000;
        private int timeoutMillis = 2_000;
        private HistoryLimits history = HistoryLimits.NONE;

        private Builder(Object url) {
            this.url = url;
        }

        /** Messages that may wait for Redis; the oldest are dropped beyond it. Default 10,000. */
        public Builder queueCapacity(int messages) {
            this.queueCapacity = messages;
            return this;
        }

        /** Where the engine's lines go ("nettyrack: pubsub: lost Redis at ..."). Default: nowhere. */
        public Builder log(Consumer<String> sink) {
            this.log = sink;
            return this;
        }

        /**
         * Like {@link #log}, one line at a time to a stream (the server's error stream), where a
         * local subscriber's failure is reported too (stderr otherwise).
         */
        public Builder logTo(OutputStream stream) {
            PrintStream out = new PrintStream(stream, true, StandardCharsets.UTF_8);
            this.errorLog = new ErrorLog(stream);
            return log(out::println);
        }

        /** Reconnection delays: the first, doubling up to the last. Default 100 ms to 5 s. */
        public Builder backoff(long minMillis, long maxMillis) {
            Backoff.check(minMillis, maxMillis);
            this.minBackoffMillis = minMillis;
            this.maxBackoffMillis = maxMillis;
            return this;
        }

        /** How often the subscriber connection is pinged; it is given up after 3 silent intervals. */
        public Builder pingMillis(long millis) {
            if (millis < 1) {
                throw new IllegalArgumentException("the ping interval must be at least 1 ms, got " + millis);
            }
            this.pingMillis = millis;
            return this;
        }

        /** Connect and command timeout. Default 2 s. */
        public Builder timeoutMillis(int millis) {
            if (millis < 1) {
                throw new IllegalArgumentException("the Redis timeout must be at least 1 ms, got " + millis);
            }
            this.timeoutMillis = millis;
            return this;
        }

        /**
         * Keep each channel's last messages in Redis Streams within limits, so subscribers can
         * resume from an id. Default: none. Needs Redis 7.
         */
        public Builder history(HistoryLimits limits) {
            this.history = limits;
            return this;
        }

        public RedisPubSub start() {
            if (queueCapacity < 1) {
                throw new IllegalArgumentException("the publish queue needs room for 1 message at least, got " + queueCapacity);
            }
            return new RedisPubSub(this);
        }
    }
}
