package org.nettyrack.core.ops;

import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.nettyrack.core.RackHandler;
import org.nettyrack.core.Workers;

/**
 * The control endpoint's actions for one server: stats and metrics from the transport, thread
 * backtraces with the application's part collected on a worker ({@link ThreadDump}), stop and
 * restart and reload handed to whoever waits on the {@link Orders}, the phase from its {@link Lifecycle}.
 */
public final class ServerControl implements ControlActions {
    static final String STOP_REASON = "control /stop";
    static final String RESTART_REASON = "control /restart";
    static final String RELOAD_REASON = "control /reload-app";

    private final Supplier<ServerStats> stats;
    private final Supplier<String> metrics;
    private final Workers workers;
    private final RackHandler app;
    private final long backtraceTimeoutMillis;
    private final Orders orders;
    private final Lifecycle lifecycle;

    public ServerControl(Supplier<ServerStats> stats, Supplier<String> metrics, Workers workers, RackHandler app,
                         long backtraceTimeoutMillis, Orders orders, Lifecycle lifecycle) {
        this.stats = stats;
        this.metrics = metrics;
        this.workers = workers;
        this.app = app;
        this.backtraceTimeoutMillis = backtraceTimeoutMillis;
        this.orders = orders;
        this.lifecycle = lifecycle;
    }

    @Override
    public String stats() {
        return stats.get().toJson();
    }

    @Override
    public String metrics() {
        return metrics.get();
    }

    @Override
    public CompletableFuture<String> threadBacktraces() {
        return ThreadDump.collect(workers, app::backtraces, backtraceTimeoutMillis);
    }

    @Override
    public void stop() {
        orders.request(Orders.Kind.STOP, STOP_REASON);
    }

    @Override
    public void restart() {
        lifecycle.restart("requested");
        orders.request(Orders.Kind.RESTART, RESTART_REASON);
    }

    @Override
    public String reloadApp() {
        String refusal = lifecycle.askReload();
        if (refusal == null) {
            orders.request(Orders.Kind.RELOAD, RELOAD_REASON);
        }
        return refusal;
    }

    @Override
    public Lifecycle.Phase phase() {
        return lifecycle.phase();
    }
}
