package org.nettyrack.redis;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;
import java.util.function.Function;
import org.nettyrack.core.ErrorLog;
import org.nettyrack.core.push.HistoryLimits;
import org.nettyrack.core.push.PubSub;

/**
 * A Redis engine's settings, each checked as it is given, and its {@link #start}: the one
 * place an engine is made from a URL. {@link #of} picks the engine by the URL's scheme
 * ({@link RedisPubSub} for {@code redis://}, {@code rediss://} and {@code redis-sentinel://},
 * {@link ClusterPubSub} for {@code redis-cluster://}); {@link RedisPubSub#builder} and
 * {@link ClusterPubSub#builder} give one engine's type.
 *
 * <pre>
 * PubSub engine = EngineBuilder.of("redis-cluster://10.0.0.5:7000").logTo(System.err).start();
 * </pre>
 */
public final class EngineBuilder<E extends PubSub> {
    /** What an engine is built from. */
    record Settings(int queueCapacity, Consumer<String> log, ErrorLog errorLog, long minBackoffMillis,
                    long maxBackoffMillis, long pingMillis, int timeoutMillis, HistoryLimits history) {
        /** A fresh one per thread: Backoff is not shared. */
        Backoff backoff() {
            return new Backoff(minBackoffMillis, maxBackoffMillis);
        }

        /** How long a subscriber connection may stay silent: 3 ping intervals. */
        int subscriberTimeoutMillis() {
            return (int) Math.min(Integer.MAX_VALUE, 3 * pingMillis);
        }
    }

    private final Function<Settings, ? extends E> engine;
    private int queueCapacity = 10_000;
    private Consumer<String> log = line -> { };
    private ErrorLog errorLog = ErrorLog.stderr();
    private long minBackoffMillis = 100;
    private long maxBackoffMillis = 5_000;
    private long pingMillis = 10_000;
    private int timeoutMillis = 2_000;
    private HistoryLimits history = HistoryLimits.NONE;

    EngineBuilder(Function<Settings, ? extends E> engine) {
        this.engine = engine;
    }

    /** The engine a URL's scheme names; IllegalArgumentException says what is wrong with the URL. */
    public static EngineBuilder<PubSub> of(String url) {
        return url.startsWith(ClusterUrl.SCHEME)
            ? new EngineBuilder<>(ClusterPubSub.engine(url))
            : new EngineBuilder<>(RedisPubSub.engine(url));
    }

    /** Messages that may wait for Redis; the oldest are dropped beyond it. Default 10,000. */
    public EngineBuilder<E> queueCapacity(int messages) {
        this.queueCapacity = messages;
        return this;
    }

    /** Where the engine's lines go ("nettyrack: pubsub: lost Redis at ..."). Default: nowhere. */
    public EngineBuilder<E> log(Consumer<String> sink) {
        this.log = sink;
        return this;
    }

    /**
     * Like {@link #log}, one line at a time to a stream (the server's error stream), where a
     * local subscriber's failure is reported too (stderr otherwise).
     */
    public EngineBuilder<E> logTo(OutputStream stream) {
        PrintStream out = new PrintStream(stream, true, StandardCharsets.UTF_8);
        this.errorLog = new ErrorLog(stream);
        return log(out::println);
    }

    /** Reconnection delays: the first, doubling up to the last. Default 100 ms to 5 s. */
    public EngineBuilder<E> backoff(long minMillis, long maxMillis) {
        Backoff.check(minMillis, maxMillis);
        this.minBackoffMillis = minMillis;
        this.maxBackoffMillis = maxMillis;
        return this;
    }

    /** How often subscriber connections are pinged; one is given up after 3 silent intervals. */
    public EngineBuilder<E> pingMillis(long millis) {
        if (millis < 1) {
            throw new IllegalArgumentException("the ping interval must be at least 1 ms, got " + millis);
        }
        this.pingMillis = millis;
        return this;
    }

    /** Connect and command timeout. Default 2 s. */
    public EngineBuilder<E> timeoutMillis(int millis) {
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
    public EngineBuilder<E> history(HistoryLimits limits) {
        this.history = limits;
        return this;
    }

    /** The engine, connecting in the background. */
    public E start() {
        if (queueCapacity < 1) {
            throw new IllegalArgumentException("the publish queue needs room for 1 message at least, got " + queueCapacity);
        }
        return engine.apply(new Settings(queueCapacity, log, errorLog, minBackoffMillis, maxBackoffMillis, pingMillis,
            timeoutMillis, history));
    }
}
