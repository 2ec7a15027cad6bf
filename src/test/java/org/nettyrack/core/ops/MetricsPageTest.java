package org.nettyrack.core.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.nettyrack.core.FakeRequest;
import org.nettyrack.core.RequestTimes;
import org.nettyrack.core.Upgrade;
import org.nettyrack.core.WorkerPool;
import org.nettyrack.core.push.PubSub;

class MetricsPageTest {
    private static final MetricsPage.Info INFO = new MetricsPage.Info("0.1.0", "netty", "10.1.1.0", "25");
    private static final Pattern SAMPLE = Pattern.compile("[a-z_]+(\\{[a-z_]+=\"[^\"]*\"(,[a-z_]+=\"[^\"]*\")*\\})? -?[0-9.E+-]+|.* [+-]Inf|.* NaN");
    private final ServerCounters counters = new ServerCounters();
    private final Lifecycle life = new Lifecycle();

    private String render(PubSub.State pubsub, PubSub.Flow flow) {
        ServerStats stats = counters.snapshot(life, 3, 2, new WorkerPool.Load(1, 4, 16, 2), pubsub);
        return MetricsPage.render(INFO, stats, counters, life, Map.of("tcp", 2, "unix", 1), flow);
    }

    @Test
    void everyLineIsAHelpATypeOrAWellFormedSample() {
        String page = render(PubSub.State.LOCAL, null);
        for (String line : page.split("\n")) {
            assertTrue(line.startsWith("# HELP ") || line.startsWith("# TYPE ") || SAMPLE.matcher(line).matches(), line);
        }
    }

    @Test
    void writesTheMetricsTheOperationsGuideLists() {
        String page = render(new PubSub.State("redis", "redis://h", "up", 4), new PubSub.Flow(2, 1_500_000_000L));
        List<String> families = Arrays.stream(page.split("\n")).filter(l -> l.startsWith("# TYPE ")).map(l -> l.split(" ")[2]).toList();
        for (String name : List.of("nettyrack_info", "nettyrack_ready", "nettyrack_requests_total", "nettyrack_requests_rejected_total",
                "nettyrack_upgrades_total", "nettyrack_request_duration_seconds", "nettyrack_request_queue_seconds",
                "nettyrack_request_app_seconds", "nettyrack_request_wire_seconds", "nettyrack_request_upstream_queue_seconds",
                "nettyrack_requests_in_flight", "nettyrack_requests_queued", "nettyrack_workers_busy", "nettyrack_workers_idle",
                "nettyrack_workers_threads", "nettyrack_workers_max", "nettyrack_connections_open", "nettyrack_push_connections",
                "nettyrack_push_messages_sent_total", "nettyrack_push_messages_dropped_total", "nettyrack_push_slow_closed_total",
                "nettyrack_pubsub_up", "nettyrack_pubsub_queued_messages", "nettyrack_pubsub_lag_seconds",
                "nettyrack_pubsub_reconnects_total", "nettyrack_restarts_total", "nettyrack_reloads_total",
                "jvm_memory_heap_used_bytes", "jvm_gc_collection_seconds_total", "jvm_threads_live", "process_start_time_seconds")) {
            assertTrue(families.contains(name), name + " in " + families);
        }
        assertTrue(page.contains("nettyrack_pubsub_lag_seconds 1.5\n"), page);
        assertTrue(page.contains("nettyrack_pubsub_reconnects_total 2\n"), page);
        assertTrue(page.contains("nettyrack_pubsub_queued_messages 4\n"), page);
        assertTrue(page.contains("nettyrack_connections_open{transport=\"unix\"} 1\n"), page);
        assertTrue(page.contains("nettyrack_workers_idle 3\n"), page);
        assertTrue(page.contains("nettyrack_requests_queued 2\n"), page);
        assertTrue(page.contains("nettyrack_info{version=\"0.1.0\",door=\"netty\",jruby=\"10.1.1.0\",java=\"25\"} 1\n"), page);
    }

    @Test
    void anEngineInThisProcessHasNoLinkToWatch() {
        assertFalse(render(PubSub.State.LOCAL, null).contains("nettyrack_pubsub_"));
    }

    @Test
    void eachCountMovesWithWhatItCounts() {
        FakeRequest h2 = new FakeRequest("GET", "/", "HTTP/2.0");
        RequestTimes times = h2.times();
        times.dispatched();
        times.started();
        times.returned();
        counters.answered(h2, 503, System.nanoTime());
        counters.answered(new FakeRequest("GET", "/", "HTTP/1.1"), 200, System.nanoTime());
        counters.rejected();
        counters.pushOpened(Upgrade.SSE);
        counters.sent(Upgrade.SSE);
        counters.dropped(Upgrade.WEBSOCKET);
        counters.closedSlow(Upgrade.WEBSOCKET);
        life.enter(Lifecycle.Phase.SERVING);
        life.restartStarted("in progress (pid 1)");
        life.restartFailed("failed: no");
        life.reloadEnded("done", false);
        String page = render(PubSub.State.LOCAL, null);
        for (String sample : List.of("nettyrack_requests_total{protocol=\"h2\",code=\"5xx\"} 1",
                "nettyrack_requests_total{protocol=\"http1\",code=\"2xx\"} 1", "nettyrack_requests_rejected_total 1",
                "nettyrack_request_duration_seconds_count 2", "nettyrack_request_app_seconds_count 1",
                "nettyrack_request_upstream_queue_seconds_count 0", "nettyrack_upgrades_total{kind=\"sse\"} 1",
                "nettyrack_push_connections{kind=\"sse\"} 1", "nettyrack_push_messages_sent_total{kind=\"sse\"} 1",
                "nettyrack_push_messages_dropped_total{kind=\"websocket\"} 1", "nettyrack_push_slow_closed_total 1",
                "nettyrack_restarts_total{outcome=\"started\"} 1", "nettyrack_restarts_total{outcome=\"failed\"} 1",
                "nettyrack_reloads_total{outcome=\"done\"} 1", "nettyrack_ready 1")) {
            assertTrue(page.contains(sample + "\n"), sample + " in\n" + page);
        }
        assertEquals(1, page.lines().filter(l -> l.startsWith("nettyrack_request_app_seconds_count")).count());
    }
}
