package org.nettyrack.core.ops;

import java.util.concurrent.CompletableFuture;

/**
 * What the control endpoint can do, whatever carries its requests: the transport's listener
 * authenticates and routes, then calls one of these, on its event loop. None of them blocks
 * or enters Ruby there; {@link ServerControl} is the real one.
 */
public interface ControlActions {
    /** {@code GET /stats}: {@link ServerStats} as JSON. */
    String stats();

    /** {@code GET /metrics}: {@link MetricsPage}, Prometheus' text format. */
    String metrics();

    /** {@code GET /thread-backtraces}: {@link ThreadDump} as JSON, once collected. */
    CompletableFuture<String> threadBacktraces();

    /** {@code POST /stop}: asks for the same graceful stop as SIGTERM, and returns at once. */
    void stop();

    /** {@code POST /restart}: asks for the same hot restart as SIGUSR2, and returns at once. */
    void restart();

    /**
     * {@code POST /reload-app}: asks for a reload of the application inside this process, and
     * returns at once: null when asked, else why not (one is under way already).
     */
    String reloadApp();

    /** {@code GET /ready} and {@code GET /health}: where the server is in its life. */
    Lifecycle.Phase phase();
}
