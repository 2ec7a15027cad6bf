package org.nettyrack.core.ops;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.nettyrack.core.RackRequest;
import org.nettyrack.core.RequestTimes;
import org.nettyrack.core.Upgrade;
import org.nettyrack.core.WorkerPool;
import org.nettyrack.core.metrics.Histogram;
import org.nettyrack.core.push.PubSub;
import org.nettyrack.core.push.PushTally;

/**
 * The counts a transport keeps for {@link ServerStats} as it serves, each one atomic and cheap
 * enough for every request: requests answered (when their last byte is written, as the access
 * log sees them), how many of those had a 5xx status, how many were refused with 503 because the
 * worker queue was full, the push sessions open by kind, and those closed for a queue past its
 * limit. Gauges the transport has anyway
 * (open connections, requests in flight, the pool's load) join them in {@link #snapshot}.
 * For the metrics ({@link MetricsPage}) also: answers by protocol and status class, the
 * {@link RequestTimes} of each in four histograms, push connections opened and writes sent
 * or dropped by kind. (Hot restarts and reloads are counted by the {@link Lifecycle}.)
 */
public final class ServerCounters implements PushTally {
    /** Protocols of {@link #byProtocol}: HTTP/1.x, HTTP/2. */
    static final String[] PROTOCOLS = {"http1", "h2"};

    private final long startNanos = System.nanoTime();
    private final LongAdder otherStatus = new LongAdder(); // answers outside 100-599 (a full hijack's 0)
    private final LongAdder rejected = new LongAdder();
    private final AtomicInteger websockets = new AtomicInteger();
    private final AtomicInteger sseStreams = new AtomicInteger();
    private final LongAdder slowClosed = new LongAdder();
    private final LongAdder[][] byProtocol = new LongAdder[PROTOCOLS.length][5]; // [protocol][status / 100 - 1]
    final Histogram duration = new Histogram();
    final Histogram queue = new Histogram();
    final Histogram app = new Histogram();
    final Histogram wire = new Histogram();
    final Histogram upstream = new Histogram();
    private final LongAdder[] upgrades = {new LongAdder(), new LongAdder()}; // websocket, sse
    private final LongAdder[] pushSent = {new LongAdder(), new LongAdder()};
    private final LongAdder[] pushDropped = {new LongAdder(), new LongAdder()};

    public ServerCounters() {
        for (LongAdder[] classes : byProtocol) {
            for (int i = 0; i < classes.length; i++) {
                classes[i] = new LongAdder();
            }
        }
    }

    /**
     * A response's last byte was written at endNanos (or the connection was upgraded, or
     * hijacked) with this status: counted, and its times observed.
     */
    public void answered(RackRequest request, int status, long endNanos) {
        if (status >= 100 && status <= 599) { // one count per answer: the totals are sums
            byProtocol[request.protocol().startsWith("HTTP/2") ? 1 : 0][status / 100 - 1].increment();
        } else {
            otherStatus.increment();
        }
        RequestTimes times = request.times();
        duration.observeNanos(times.totalNanos(endNanos));
        if (times.reachedApp()) { // not a public file, not a 503 from a full queue
            queue.observeNanos(times.queueNanos());
            app.observeNanos(times.appNanos(endNanos));
            wire.observeNanos(times.wireNanos(endNanos));
        }
        long upstreamMicros = times.upstreamQueueMicros();
        if (upstreamMicros >= 0) {
            upstream.observeNanos(upstreamMicros * 1_000);
        }
    }

    private long answered() {
        long all = otherStatus.sum();
        for (LongAdder[] classes : byProtocol) {
            for (LongAdder count : classes) {
                all += count.sum();
            }
        }
        return all;
    }

    private long errors() {
        long all = 0;
        for (LongAdder[] classes : byProtocol) {
            all += classes[4].sum();
        }
        return all;
    }

    /** Answers with this protocol (an index of {@link #PROTOCOLS}) and status class (1 to 5). */
    long answered(int protocol, int statusClass) {
        return byProtocol[protocol][statusClass - 1].sum();
    }

    /** The worker queue was full: the request gets 503 without reaching the application. */
    public void rejected() {
        rejected.increment();
    }

    /**
     * A push session was closed because what it was sent passed {@code --max-push-queue}: its
     * client reads slower than the application writes (a broadcast it cannot keep up with).
     */
    @Override
    public void closedSlow(Upgrade kind) {
        slowClosed.increment();
    }

    public void pushOpened(Upgrade kind) {
        sessions(kind).incrementAndGet();
        upgrades[kind(kind)].increment();
    }

    @Override
    public void sent(Upgrade kind) {
        pushSent[kind(kind)].increment();
    }

    @Override
    public void dropped(Upgrade kind) {
        pushDropped[kind(kind)].increment();
    }

    long upgrades(Upgrade kind) {
        return upgrades[kind(kind)].sum();
    }

    long pushSent(Upgrade kind) {
        return pushSent[kind(kind)].sum();
    }

    long pushDropped(Upgrade kind) {
        return pushDropped[kind(kind)].sum();
    }

    private static int kind(Upgrade kind) {
        return kind == Upgrade.WEBSOCKET ? 0 : 1;
    }

    public void pushClosed(Upgrade kind) {
        sessions(kind).decrementAndGet();
    }

    /**
     * The counts now, with the transport's gauges. {@code active} is every request between
     * dispatch and last byte plus every open push session (a graceful stop waits for both);
     * the requests in flight are the difference.
     */
    public ServerStats snapshot(Lifecycle life, int openConnections, int active, WorkerPool.Load workers,
                                PubSub.State pubsub) {
        int websocket = websockets.get();
        int sse = sseStreams.get();
        return new ServerStats(System.nanoTime() - startNanos, ServerStats.Process.of(life), openConnections,
            Math.max(0, active - websocket - sse), answered(), errors(), rejected.sum(),
            workers, websocket, sse, slowClosed.sum(), pubsub, ServerStats.Heap.now());
    }

    private AtomicInteger sessions(Upgrade kind) {
        return kind == Upgrade.WEBSOCKET ? websockets : sseStreams;
    }
}
