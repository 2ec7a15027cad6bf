package org.nettyrack.core.ops;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.nettyrack.core.Upgrade;
import org.nettyrack.core.WorkerPool;
import org.nettyrack.core.push.PubSub;

/**
 * The counts a transport keeps for {@link ServerStats} as it serves, each one atomic and cheap
 * enough for every request: requests answered (when their last byte is written, as the access
 * log sees them), how many of those had a 5xx status, how many were refused with 503 because the
 * worker queue was full, the push sessions open by kind, and those closed for a queue past its
 * limit. Gauges the transport has anyway
 * (open connections, requests in flight, the pool's load) join them in {@link #snapshot}.
 */
public final class ServerCounters {
    private final long startNanos = System.nanoTime();
    private final LongAdder answered = new LongAdder();
    private final LongAdder errors = new LongAdder();
    private final LongAdder rejected = new LongAdder();
    private final AtomicInteger websockets = new AtomicInteger();
    private final AtomicInteger sseStreams = new AtomicInteger();
    private final LongAdder slowClosed = new LongAdder();

    /** A response's last byte was written (or the connection was upgraded) with this status. */
    public void answered(int status) {
        answered.increment();
        if (status >= 500 && status <= 599) {
            errors.increment();
        }
    }

    /** The worker queue was full: the request gets 503 without reaching the application. */
    public void rejected() {
        rejected.increment();
    }

    /**
     * A push session was closed because what it was sent passed {@code --max-push-queue}: its
     * client reads slower than the application writes (a broadcast it cannot keep up with).
     */
    public void slowConsumerClosed() {
        slowClosed.increment();
    }

    public void pushOpened(Upgrade kind) {
        sessions(kind).incrementAndGet();
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
            Math.max(0, active - websocket - sse), answered.sum(), errors.sum(), rejected.sum(),
            workers, websocket, sse, slowClosed.sum(), pubsub, ServerStats.Heap.now());
    }

    private AtomicInteger sessions(Upgrade kind) {
        return kind == Upgrade.WEBSOCKET ? websockets : sseStreams;
    }
}
