package org.nettyrack.netty;

import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;
import org.nettyrack.core.AccessLog;
import org.nettyrack.core.ErrorLog;
import org.nettyrack.core.RackHandler;
import org.nettyrack.core.ServerConfig;
import org.nettyrack.core.Workers;
import org.nettyrack.core.ops.ServerCounters;
import org.nettyrack.netty.listen.ConnectionLimit;
import org.nettyrack.netty.files.PublicFiles;

/**
 * What every connection of one server shares: settings, the application, the worker pool,
 * the open channels, the count of requests between dispatch and last byte written, which
 * a graceful stop waits on, and the counters {@code GET /stats} reports.
 */
public final class ServerState {
    public final ServerConfig config;
    public final RackHandler handler;
    public final Workers workers;
    public final AccessLog accessLog;
    public final ErrorLog errorLog;
    final ChannelGroup channels = new DefaultChannelGroup("nettyrack", GlobalEventExecutor.INSTANCE);
    final ConnectionLimit connections;
    /** {@code --public}: files answered before the application; null without it. */
    public final PublicFiles publicFiles;
    public final AtomicInteger activeRequests = new AtomicInteger();
    public final ServerCounters counters = new ServerCounters();
    public volatile boolean draining;

    public ServerState(ServerConfig config, RackHandler handler, Workers workers) {
        this(config, handler, workers, System::nanoTime);
    }

    /** clock: nanoseconds for the public files' cache time (tests give the event loop's ticker). */
    public ServerState(ServerConfig config, RackHandler handler, Workers workers, LongSupplier clock) {
        this(config, handler, workers, config.logs().accessLog() == null ? null
            : new AccessLog(config.logs().accessLog(), config.logs().accessLogFormat()), PublicFiles.of(config, clock));
    }

    private ServerState(ServerConfig config, RackHandler handler, Workers workers, AccessLog accessLog,
                        PublicFiles publicFiles) {
        this.config = config;
        this.handler = handler;
        this.workers = workers;
        this.accessLog = accessLog;
        this.errorLog = config.logs().errorLog();
        this.connections = new ConnectionLimit(config.workers().connectionCap());
        this.publicFiles = publicFiles;
    }

    /**
     * The same application, workers, settings and public files, but connections, counters and
     * no access log of its own: a warm-up's requests are neither logged nor counted as traffic.
     */
    ServerState forWarmup() {
        return new ServerState(config, handler, workers, null, publicFiles);
    }
}
