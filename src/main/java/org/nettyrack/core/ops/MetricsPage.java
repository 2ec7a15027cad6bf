package org.nettyrack.core.ops;

import java.util.Map;
import org.nettyrack.core.Upgrade;
import org.nettyrack.core.metrics.Histogram;
import org.nettyrack.core.metrics.JvmMetrics;
import org.nettyrack.core.metrics.PrometheusText;
import org.nettyrack.core.push.PubSub;

/**
 * {@code GET /metrics}: one server's {@link ServerStats} and {@link ServerCounters} in
 * Prometheus' text format, then the JVM's ({@link JvmMetrics}). The same page for every door;
 * {@link Info#door} tells them apart. docs/operations.md lists each metric and its alert.
 */
public final class MetricsPage {
    /** What runs: nettyrack's version, the door ({@code netty}, {@code servlet}), JRuby's and Java's versions. */
    public record Info(String version, String door, String jruby, String java) {
        /** For a door serving app: the version from nettyrack's jar ({@code dev} outside one). */
        public static Info of(String door, org.nettyrack.core.RackHandler app) {
            String version = MetricsPage.class.getPackage().getImplementationVersion();
            return new Info(version == null ? "dev" : version, door, app.runtimeVersion(), System.getProperty("java.version"));
        }
    }

    private MetricsPage() {
    }

    /**
     * life: the server's (its phase; hot restarts and reloads); connections: open connections by transport ({@code tcp}, {@code unix}); flow: the pub/sub
     * engine's, or null for one inside this process.
     */
    public static String render(Info info, ServerStats stats, ServerCounters counters, Lifecycle life,
                                Map<String, Integer> connections, PubSub.Flow flow) {
        PrometheusText out = new PrometheusText();
        out.single("nettyrack_info", "gauge", "What runs: nettyrack, its door, JRuby and Java.", 1,
            "version", info.version(), "door", info.door(), "jruby", info.jruby(), "java", info.java());
        out.single("nettyrack_ready", "gauge", "1 while serving; 0 while booting, warming up or draining.",
            stats.process().phase() == Lifecycle.Phase.SERVING ? 1 : 0);
        requests(out, stats, counters);
        workers(out, stats);
        out.family("nettyrack_connections_open", "gauge", "Open client connections, by transport.");
        connections.forEach((transport, open) -> out.sample("nettyrack_connections_open", open, "transport", transport));
        push(out, stats, counters);
        pubsub(out, stats.pubsub(), flow);
        out.family("nettyrack_restarts_total", "counter", "Hot restarts this process began, and those that failed.")
            .sample("nettyrack_restarts_total", life.restartsStarted(), "outcome", "started")
            .sample("nettyrack_restarts_total", life.restartsFailed(), "outcome", "failed");
        out.family("nettyrack_reloads_total", "counter", "Reloads of the application inside this process, done and failed.")
            .sample("nettyrack_reloads_total", life.reloadsDone(), "outcome", "done")
            .sample("nettyrack_reloads_total", life.reloadsFailed(), "outcome", "failed");
        JvmMetrics.write(out);
        return out.toString();
    }

    private static void requests(PrometheusText out, ServerStats stats, ServerCounters counters) {
        out.family("nettyrack_requests_total", "counter",
            "Responses whose last byte was written (an upgrade counts with its status), by protocol and status class.");
        for (int p = 0; p < ServerCounters.PROTOCOLS.length; p++) {
            for (int c = 1; c <= 5; c++) {
                out.sample("nettyrack_requests_total", counters.answered(p, c), "protocol", ServerCounters.PROTOCOLS[p],
                    "code", c + "xx");
            }
        }
        out.single("nettyrack_requests_rejected_total", "counter", "Requests answered 503 because the worker queue was full.",
            stats.rejected());
        histogram(out, counters.duration, "nettyrack_request_duration_seconds", "From the request head's arrival to the last byte written.");
        histogram(out, counters.queue, "nettyrack_request_queue_seconds", "Time a request waited for a worker thread.");
        histogram(out, counters.app, "nettyrack_request_app_seconds", "Time in the application: its call and its body.");
        histogram(out, counters.wire, "nettyrack_request_wire_seconds", "After the application returned, until the last byte was written.");
        histogram(out, counters.upstream, "nettyrack_request_upstream_queue_seconds",
            "From a proxy's X-Request-Start to the request head's arrival (requests that carry it).");
        out.single("nettyrack_requests_in_flight", "gauge", "Requests between hand-off and last byte.", stats.requestsInFlight());
        out.single("nettyrack_requests_queued", "gauge", "Requests waiting for a worker thread.", stats.workers().queued());
    }

    private static void histogram(PrometheusText out, Histogram histogram, String name, String help) {
        out.family(name, "histogram", help);
        histogram.write(out, name);
    }

    private static void workers(PrometheusText out, ServerStats stats) {
        int busy = stats.workers().busy();
        int threads = stats.workers().threads();
        out.single("nettyrack_workers_busy", "gauge", "Worker threads running the application.", busy);
        out.single("nettyrack_workers_idle", "gauge", "Worker threads started and waiting for a request.", Math.max(0, threads - busy));
        out.single("nettyrack_workers_threads", "gauge", "Worker threads started.", threads);
        out.single("nettyrack_workers_max", "gauge", "The most worker threads the pool may start.", stats.workers().maxThreads());
    }

    private static void push(PrometheusText out, ServerStats stats, ServerCounters counters) {
        out.family("nettyrack_upgrades_total", "counter", "Push connections opened, by kind.")
            .sample("nettyrack_upgrades_total", counters.upgrades(Upgrade.WEBSOCKET), "kind", "websocket")
            .sample("nettyrack_upgrades_total", counters.upgrades(Upgrade.SSE), "kind", "sse");
        out.family("nettyrack_push_connections", "gauge", "Open push connections, by kind.")
            .sample("nettyrack_push_connections", stats.websocketSessions(), "kind", "websocket")
            .sample("nettyrack_push_connections", stats.sseSessions(), "kind", "sse");
        out.family("nettyrack_push_messages_sent_total", "counter", "Push messages accepted for sending, by kind.")
            .sample("nettyrack_push_messages_sent_total", counters.pushSent(Upgrade.WEBSOCKET), "kind", "websocket")
            .sample("nettyrack_push_messages_sent_total", counters.pushSent(Upgrade.SSE), "kind", "sse");
        out.family("nettyrack_push_messages_dropped_total", "counter",
                "Push messages dropped: the connection closed or closing, or over its queue limit; by kind.")
            .sample("nettyrack_push_messages_dropped_total", counters.pushDropped(Upgrade.WEBSOCKET), "kind", "websocket")
            .sample("nettyrack_push_messages_dropped_total", counters.pushDropped(Upgrade.SSE), "kind", "sse");
        out.single("nettyrack_push_slow_closed_total", "counter",
            "Push connections closed because their client read too slowly (queue past --max-push-queue).", stats.slowConsumersClosed());
    }

    private static void pubsub(PrometheusText out, PubSub.State state, PubSub.Flow flow) {
        if (state == null || state.link() == null) {
            return; // in this process only: no link to watch
        }
        out.single("nettyrack_pubsub_up", "gauge", "1 while the link to the pub/sub engine (Redis) is up.",
            "up".equals(state.link()) ? 1 : 0);
        out.single("nettyrack_pubsub_queued_messages", "gauge", "Messages waiting to be published.",
            state.queued() == null ? 0 : state.queued());
        if (flow != null) {
            out.single("nettyrack_pubsub_lag_seconds", "gauge", "How long the oldest message waiting to be published has waited.",
                flow.lagNanos() / 1e9);
            out.single("nettyrack_pubsub_reconnects_total", "counter", "Times the link to the pub/sub engine came back after it was lost.",
                flow.reconnects());
        }
    }
}
