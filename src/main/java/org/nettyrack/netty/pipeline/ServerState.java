package org.nettyrack.netty.pipeline;

import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.nettyrack.core.AccessLog;
import org.nettyrack.core.ErrorLog;
import org.nettyrack.core.RackHandler;
import org.nettyrack.core.Workers;
import org.nettyrack.core.config.ServerConfig;
import org.nettyrack.core.ops.ExchangeTracer;
import org.nettyrack.core.ops.ExchangeTracers;
import org.nettyrack.core.ops.ServerCounters;
import org.nettyrack.core.warmup.RecentRequests;

/**
 * What every connection of one server shares: settings, the application, the worker pool,
 * the open channels, the count of requests between dispatch and last byte written, which
 * a graceful stop waits on, the counters {@code GET /stats} reports, and the tracer told of
 * each finished exchange.
 */
public final class ServerState {
    public final ServerConfig config;
    public final RackHandler handler;
    public final Workers workers;
    public final AccessLog accessLog;
    public final ErrorLog errorLog;
    /** A span per finished exchange, or {@link ExchangeTracer#NONE} ({@link ExchangeTracers}). */
    public final ExchangeTracer tracer;
    public final ChannelGroup channels = new DefaultChannelGroup("nettyrack", GlobalEventExecutor.INSTANCE);
    private final AtomicInteger activeRequests = new AtomicInteger();
    public final ServerCounters counters = new ServerCounters();
    /** The requests a hot restart's new process may warm up on; null unless asked for ({@code --warmup recent}). */
    private volatile RecentRequests recent;
    public volatile boolean draining;

    public ServerState(ServerConfig config, RackHandler handler, Workers workers) {
        this(config, handler, workers, config.logs().accessLog() == null ? null
            : new AccessLog(config.logs().accessLog(), config.logs().accessLogFormat()),
            ExchangeTracers.choose(config.logs().traces(), config.logs().errorLog()));
    }

    private ServerState(ServerConfig config, RackHandler handler, Workers workers, AccessLog accessLog,
                        ExchangeTracer tracer) {
        this.config = config;
        this.handler = handler;
        this.workers = workers;
        this.accessLog = accessLog;
        this.errorLog = config.logs().errorLog();
        this.tracer = tracer;
    }

    /** What the dispatchers record answered requests in, or null. */
    public RecentRequests recent() {
        return recent;
    }

    public void rememberRecent(int size) {
        recent = new RecentRequests(size);
    }

    /** Counts a request as in progress until the returned token is released. */
    public ActiveRequest activeRequest() {
        return new ActiveRequest(activeRequests);
    }

    /** Requests (and upgraded connections) in progress: a graceful stop waits for none. */
    public int activeRequests() {
        return activeRequests.get();
    }

    /**
     * Tells every connection to close once idle and waits, until deadlineNanos at most, for
     * them to close and for the requests and push connections they counted to end; then
     * closes what is left. Connections close themselves: idle ones after the drain grace, busy
     * ones after an answer with connection: close, push ones after on_shutdown and their close.
     * A closed channel leaves the group when its close future completes, and Netty runs its
     * channelInactive (where a push connection releases its {@link ActiveRequest}) in a task
     * after that: so the wait is for the count too, not only for the group to empty. Answers
     * whether nothing was in progress any more when the wait ended.
     */
    public boolean drain(long deadlineNanos) throws InterruptedException {
        channels.forEach(ch -> ch.pipeline().fireUserEventTriggered(ConnectionEvent.DRAIN));
        while ((!channels.isEmpty() || activeRequests() > 0) && System.nanoTime() < deadlineNanos) {
            Thread.sleep(10);
        }
        boolean finished = activeRequests() == 0;
        channels.close().await(1, TimeUnit.SECONDS);
        return finished;
    }

    /**
     * The same application, workers and settings, but connections, counters and no access log
     * or tracer of its own: a warm-up's requests are neither logged, traced nor counted as traffic.
     */
    public ServerState forWarmup() {
        return new ServerState(config, handler, workers, null, ExchangeTracer.NONE);
    }
}
