package org.nettyrack.core.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.nettyrack.core.Upgrade;
import org.nettyrack.core.WorkerPool;
import org.nettyrack.core.push.PubSub;

/** The counters a transport feeds, the snapshot they make, and its JSON. */
class ServerStatsTest {
    private static final ServerStats.Process BOOTING = new ServerStats.Process(1, Lifecycle.Phase.BOOTING, null, null);
    private final Lifecycle life = new Lifecycle();
    private static final WorkerPool.Load IDLE = new WorkerPool.Load(0, 2, 16, 0);
    private static final org.nettyrack.core.RackRequest REQUEST = new org.nettyrack.core.FakeRequest("GET", "/", "HTTP/1.1");
    private final ServerCounters counters = new ServerCounters();

    @Test
    void countsAnsweredRequestsTheirServerErrorsAndRejections() {
        counters.answered(REQUEST, 200, System.nanoTime());
        counters.answered(REQUEST, 404, System.nanoTime());
        counters.answered(REQUEST, 500, System.nanoTime());
        counters.rejected();
        counters.answered(REQUEST, 503, System.nanoTime());
        counters.answered(REQUEST, 101, System.nanoTime());
        ServerStats stats = counters.snapshot(life, 0, 0, IDLE, PubSub.State.LOCAL);
        assertEquals(5, stats.requestsTotal());
        assertEquals(2, stats.errors(), "500 and 503");
        assertEquals(1, stats.rejected());
    }

    @Test
    void countsPushSessionsByKindAndLeavesThemOutOfRequestsInFlight() {
        counters.pushOpened(Upgrade.WEBSOCKET);
        counters.pushOpened(Upgrade.WEBSOCKET);
        counters.pushOpened(Upgrade.SSE);
        counters.pushClosed(Upgrade.WEBSOCKET);
        ServerStats stats = counters.snapshot(life, 4, 3, IDLE, PubSub.State.LOCAL);
        assertEquals(1, stats.websocketSessions());
        assertEquals(1, stats.sseSessions());
        assertEquals(1, stats.requestsInFlight(), "3 active, 2 of them push sessions");
        assertEquals(4, stats.openConnections());
        assertEquals(0, counters.snapshot(life, 0, 1, IDLE, null).requestsInFlight(), "never below 0 while counts settle");
    }

    @Test
    void takesUptimeAndHeapFromTheJvmAndThePhaseFromTheLifecycle() {
        life.restart("failed: config.ru:3: syntax error");
        ServerStats stats = counters.snapshot(life, 0, 0, IDLE, null);
        assertTrue(stats.uptimeNanos() >= 0);
        assertTrue(stats.heap().used() > 0);
        assertEquals(ProcessHandle.current().pid(), stats.process().pid());
        assertTrue(stats.toJson().contains("\"phase\":\"booting\",\"restart\":\"failed: config.ru:3: syntax error\","
            + "\"reload\":null}"), stats.toJson());
        life.reload("done: generation 2 serves", false);
        assertTrue(counters.snapshot(life, 0, 0, IDLE, null).toJson().contains("\"reload\":\"done: generation 2 serves\"}"));
    }

    @Test
    void writesEverySectionAsJson() {
        ServerStats stats = new ServerStats(12_345_678_901L, new ServerStats.Process(4242, Lifecycle.Phase.SERVING, null, null), 3, 1, 120, 2, 1, new WorkerPool.Load(1, 4, 16, 5), 7, 8, 3,
            new PubSub.State("redis", "redis://cache:6379/0", "up", 0), new ServerStats.Heap(1000, 4000));
        assertEquals("{\"uptime\":12.346,\"process\":{\"pid\":4242,\"phase\":\"serving\",\"restart\":null,\"reload\":null},"
            + "\"connections\":{\"open\":3},"
            + "\"requests\":{\"in_flight\":1,\"total\":120,\"errors\":2,\"rejected\":1},"
            + "\"workers\":{\"busy\":1,\"threads\":4,\"max\":16,\"queued\":5},"
            + "\"push\":{\"websocket\":7,\"sse\":8,\"slow_closed\":3},"
            + "\"pubsub\":{\"engine\":\"redis\",\"url\":\"redis://cache:6379/0\",\"link\":\"up\",\"queued\":0},"
            + "\"heap\":{\"used\":1000,\"max\":4000}}", stats.toJson());
    }

    @Test
    void namesOnlyTheEngineForLocalPubSubAndNullsWhatIsUnknown() {
        ServerStats local = new ServerStats(0, BOOTING, 0, 0, 0, 0, 0, IDLE, 0, 0, 0, PubSub.State.LOCAL, new ServerStats.Heap(1, -1));
        assertTrue(local.toJson().endsWith("\"pubsub\":{\"engine\":\"local\"},\"heap\":{\"used\":1,\"max\":null}}"), local.toJson());
        ServerStats none = new ServerStats(0, BOOTING, 0, 0, 0, 0, 0, IDLE, 0, 0, 0, null, new ServerStats.Heap(1, 2));
        assertTrue(none.toJson().contains("\"pubsub\":null"), none.toJson());
    }
}
