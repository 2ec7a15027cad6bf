package org.nettyrack.redis;

import java.util.concurrent.CompletableFuture;
import org.nettyrack.core.push.HistoryLimits;
import org.nettyrack.core.push.LocalPubSub;
import org.nettyrack.core.push.PubSub;
import org.nettyrack.core.push.Replay;

/**
 * What every Redis engine ({@link RedisPubSub}, {@link ClusterPubSub}) does the same way: this
 * process's subscribers in a {@link LocalPubSub}, where Redis is told of a channel only when it
 * gains its first or loses its last subscriber here ({@link #changed}); publishing that only
 * queues; {@link #live} from the channels Redis confirmed; and the history, when one is kept,
 * read by a {@link HistoryReader}. An engine adds its connections and threads.
 */
public abstract class RedisEngine implements PubSub {
    final String url;
    final LocalPubSub local;
    final LinkStatus status;
    final PublishQueue queue;
    final LiveChannels liveChannels = new LiveChannels();
    final HistoryLimits limits;
    private volatile HistoryReader history; // null: none kept

    RedisEngine(String url, EngineBuilder.Settings settings) {
        this.url = url;
        this.local = new LocalPubSub(settings.errorLog());
        this.status = new LinkStatus(url, settings.log());
        this.queue = new PublishQueue(settings.queueCapacity(), status);
        this.limits = settings.history();
    }

    /** The channel gained its first or lost its last local subscriber: Redis must hear of it. */
    abstract void changed(String channel);

    @Override
    public Flow flow() {
        return new Flow(status.reconnects(), queue.oldestWaitNanos());
    }

    /**
     * The history an engine keeps, if its settings ask for one: where it is kept (keys) and
     * read (route); null when none is kept. Called once, from the engine's constructor.
     */
    RedisHistory keepHistory(RedisHistory.Keys keys, HistoryReader.Route route) {
        if (!limits.on()) {
            return null;
        }
        RedisHistory kept = new RedisHistory(limits, keys);
        history = new HistoryReader(route, kept, status);
        return kept;
    }

    /** The history's reader, or null (for {@link CatchUp}). */
    HistoryReader historyReader() {
        return history;
    }

    @Override
    public void subscribe(String channel, Subscriber subscriber) {
        if (local.add(channel, subscriber)) {
            changed(channel);
            queue.wake();
        }
    }

    /** Completes once Redis confirmed the channel (or at once while Redis is out of reach). */
    @Override
    public CompletableFuture<Void> live(String channel) {
        return status.isDown() ? CompletableFuture.completedFuture(null) : liveChannels.of(channel);
    }

    @Override
    public void unsubscribe(String channel, Subscriber subscriber) {
        if (local.remove(channel, subscriber)) {
            changed(channel);
            queue.wake();
        }
    }

    @Override
    public void publish(String channel, byte[] data) {
        queue.offer(Subscriptions.bytes(channel), data);
    }

    @Override
    public HistoryLimits history() {
        return limits;
    }

    /** Reads the channel's history in Redis, waiting at most the timeout ({@link HistoryReader#replay}). */
    @Override
    public Replay resume(String channel, String position) {
        HistoryReader reader = history;
        return reader == null ? Replay.LIVE : reader.replay(channel, position);
    }

    /** Where Redis is, as given (the password hidden). */
    public String url() {
        return url;
    }

    /** Closes the history's connections, after the engine's threads stopped. */
    void closeHistory() {
        HistoryReader reader = history;
        if (reader != null) {
            reader.close();
        }
    }
}
