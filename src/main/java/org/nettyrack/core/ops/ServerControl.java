package org.nettyrack.core.ops;

import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.nettyrack.core.RackHandler;
import org.nettyrack.core.Workers;

/**
 * The control endpoint's actions for one server: stats from the transport's snapshot, thread
 * backtraces with the application's part collected on a worker ({@link ThreadDump}), and stop
 * handed to whoever waits on the {@link StopRequests}.
 */
public final class ServerControl implements Control {
    static final String STOP_REASON = "control /stop";

    private final Supplier<ServerStats> stats;
    private final Workers workers;
    private final RackHandler app;
    private final long backtraceTimeoutMillis;
    private final StopRequests stops;

    public ServerControl(Supplier<ServerStats> stats, Workers workers, RackHandler app, long backtraceTimeoutMillis,
                         StopRequests stops) {
        this.stats = stats;
        this.workers = workers;
        this.app = app;
        this.backtraceTimeoutMillis = backtraceTimeoutMillis;
        this.stops = stops;
    }

    @Override
    public String stats() {
        return stats.get().toJson();
    }

    @Override
    public CompletableFuture<String> threadBacktraces() {
        return ThreadDump.collect(workers, app::backtraces, backtraceTimeoutMillis);
    }

    @Override
    public void stop() {
        stops.request(STOP_REASON);
    }
}
