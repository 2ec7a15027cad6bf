package org.nettyrack.netty.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.nettyrack.core.WorkerPool;
import org.nettyrack.core.ops.ControlActions;
import org.nettyrack.core.ops.Lifecycle;
import org.nettyrack.core.ops.Orders;
import org.nettyrack.core.ops.ServerControl;
import org.nettyrack.core.ops.ServerStats;
import org.nettyrack.core.push.PubSub;
import org.nettyrack.netty.PipelineHarness;

/** The control endpoint's HTTP face on the pipeline ControlServer builds: token, routes, answers, order. */
class ControlHandlerTest {
    private static final String TOKEN = "s3cret-token";

    /** Records what was asked of it; thread backtraces complete when the test says. */
    private static final class FakeControl implements ControlActions {
        final CompletableFuture<String> backtraces = new CompletableFuture<>();
        int stops;
        int restarts;
        int reloads;
        String reloadRefusal;
        Lifecycle.Phase phase = Lifecycle.Phase.SERVING;

        @Override
        public String stats() {
            return "{\"fake\":true}";
        }

        @Override
        public String metrics() {
            return "fake_metric 1\n";
        }

        @Override
        public CompletableFuture<String> threadBacktraces() {
            return backtraces;
        }

        @Override
        public void stop() {
            stops++;
        }

        @Override
        public void restart() {
            restarts++;
        }

        @Override
        public String reloadApp() {
            if (reloadRefusal == null) {
                reloads++;
            }
            return reloadRefusal;
        }

        @Override
        public Lifecycle.Phase phase() {
            return phase;
        }
    }

    private final FakeControl control = new FakeControl();

    private EmbeddedChannel channel(String token, ControlActions control) {
        EmbeddedChannel ch = new EmbeddedChannel();
        ControlServer.configure(ch.pipeline(), token, 60_000, control);
        return ch;
    }

    private static String exchange(EmbeddedChannel ch, String request) {
        ch.writeInbound(Unpooled.copiedBuffer(request, StandardCharsets.ISO_8859_1));
        ch.runPendingTasks();
        return output(ch);
    }

    private static String output(EmbeddedChannel ch) {
        StringBuilder out = new StringBuilder();
        for (Object msg; (msg = ch.readOutbound()) != null; ) {
            out.append(((ByteBuf) msg).toString(StandardCharsets.UTF_8));
            ((ByteBuf) msg).release();
        }
        return out.toString();
    }

    private static String get(String target, String... headers) {
        return "GET " + target + " HTTP/1.1\r\nHost: x\r\n" + String.join("", headers) + "\r\n";
    }

    static Stream<Arguments> refused() {
        return Stream.of(
            Arguments.of("no token", get("/stats")),
            Arguments.of("a wrong ?token", get("/stats?token=guess")),
            Arguments.of("the token as a prefix", get("/stats?token=" + TOKEN + "x")),
            Arguments.of("an empty ?token", get("/stats?token=")),
            Arguments.of("the token twice", get("/stats?token=" + TOKEN + "&token=" + TOKEN)),
            Arguments.of("a wrong bearer token", get("/stats", "Authorization: Bearer guess\r\n")),
            Arguments.of("a wrong bearer beside a right ?token", get("/stats?token=" + TOKEN, "Authorization: Bearer guess\r\n")),
            Arguments.of("basic auth", get("/stats", "Authorization: Basic " + TOKEN + "\r\n")),
            Arguments.of("an unknown path", get("/secrets")),
            Arguments.of("a stop", "POST /stop HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n"));
    }

    @ParameterizedTest(name = "{0}: 403 and nothing else")
    @MethodSource("refused")
    void refusesWithoutTheRightToken(String name, String request) {
        String out = exchange(channel(TOKEN, control), request);
        assertEquals("HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\ncache-control: no-store\r\n\r\n",
            PipelineHarness.undated(out));
        assertEquals(1, PipelineHarness.dateLines(out), out);
        assertEquals(0, control.stops);
    }

    static Stream<Arguments> admitted() {
        return Stream.of(
            Arguments.of("?token", get("/stats?token=" + TOKEN)),
            Arguments.of("a URL-encoded ?token", get("/stats?token=s3cret%2Dtoken")),
            Arguments.of("a bearer header", get("/stats", "Authorization: Bearer " + TOKEN + "\r\n")),
            Arguments.of("a bearer header in other case", get("/stats", "authorization: bearer " + TOKEN + "\r\n")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("admitted")
    void answersStatsWithTheRightToken(String name, String request) {
        String out = exchange(channel(TOKEN, control), request);
        assertEquals("HTTP/1.1 200 OK", PipelineHarness.statusLine(out), out);
        assertTrue(out.contains("content-type: application/json; charset=utf-8\r\n"), out);
        assertTrue(out.endsWith("\r\n\r\n{\"fake\":true}"), out);
    }

    @Test
    void answersEveryoneWhenTokensAreOptedOutOf() {
        assertTrue(exchange(channel(null, control), get("/stats")).startsWith("HTTP/1.1 200 OK"));
    }

    @Test
    void unknownPathsAre404AndWrongMethods405WithAllow() {
        EmbeddedChannel ch = channel(TOKEN, control);
        String missing = exchange(ch, get("/reload?token=" + TOKEN));
        assertEquals("HTTP/1.1 404 Not Found", PipelineHarness.statusLine(missing), missing);
        assertTrue(missing.endsWith("{\"error\":\"no such action: /reload (GET /stats, GET /metrics, GET /thread-backtraces,"
            + " POST /stop, POST /restart, POST /reload-app, GET /ready, GET /health)\"}"), missing);

        String postStats = exchange(ch, "POST /stats?token=" + TOKEN + " HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n");
        assertEquals("HTTP/1.1 405 Method Not Allowed", PipelineHarness.statusLine(postStats), postStats);
        assertTrue(postStats.contains("allow: GET\r\n"), postStats);

        String getStop = exchange(ch, get("/stop?token=" + TOKEN));
        assertEquals("HTTP/1.1 405 Method Not Allowed", PipelineHarness.statusLine(getStop), getStop);
        assertTrue(getStop.contains("allow: POST\r\n"), getStop);
        assertEquals(0, control.stops);
        assertTrue(ch.isOpen(), "one connection serves them all");
    }

    @Test
    void metricsAreServedInPrometheusTextFormatWithTheToken() {
        EmbeddedChannel ch = channel(TOKEN, control);
        assertEquals("HTTP/1.1 403 Forbidden", PipelineHarness.statusLine(exchange(ch, get("/metrics"))));
        String out = exchange(ch, get("/metrics?token=" + TOKEN));
        assertEquals("HTTP/1.1 200 OK", PipelineHarness.statusLine(out), out);
        assertTrue(out.toLowerCase(java.util.Locale.ROOT).contains("content-type: text/plain; version=0.0.4; charset=utf-8\r\n"), out);
        assertTrue(out.endsWith("\r\n\r\nfake_metric 1\n"), out);
    }

    @Test
    void theMetricsListenerServesMetricsAndProbesWithoutATokenAndNothingElse() {
        EmbeddedChannel ch = new EmbeddedChannel();
        ControlServer.configure(ch.pipeline(), null, 60_000, control, true);
        assertTrue(exchange(ch, get("/metrics")).endsWith("fake_metric 1\n"));
        assertEquals("HTTP/1.1 200 OK", PipelineHarness.statusLine(exchange(ch, get("/ready"))));
        String stop = exchange(ch, "POST /stop HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n");
        assertEquals("HTTP/1.1 404 Not Found", PipelineHarness.statusLine(stop), stop);
        assertTrue(stop.endsWith("{\"error\":\"no such action: /stop (GET /metrics, GET /ready, GET /health)\"}"), stop);
        assertEquals("HTTP/1.1 404 Not Found", PipelineHarness.statusLine(exchange(ch, get("/stats"))));
        assertEquals(0, control.stops);
    }

    @Test
    void stopIsAskedForOnceTheAnswerIsWritten() {
        EmbeddedChannel ch = channel(TOKEN, control);
        ch.writeInbound(Unpooled.copiedBuffer("POST /stop HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + TOKEN
            + "\r\nContent-Length: 0\r\n\r\n", StandardCharsets.ISO_8859_1));
        String out = output(ch);
        assertEquals("HTTP/1.1 200 OK", PipelineHarness.statusLine(out), out);
        assertTrue(out.endsWith("{\"status\":\"stopping\"}"), out);
        assertEquals(1, control.stops);
    }

    @Test
    void restartIsAskedForOnceTheAnswerIsWrittenAndNeedsTheToken() {
        EmbeddedChannel ch = channel(TOKEN, control);
        String refused = exchange(ch, "POST /restart HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n");
        assertEquals("HTTP/1.1 403 Forbidden", PipelineHarness.statusLine(refused), refused);
        String out = exchange(ch, "POST /restart?token=" + TOKEN + " HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n");
        assertEquals("HTTP/1.1 200 OK", PipelineHarness.statusLine(out), out);
        assertTrue(out.endsWith("{\"status\":\"restarting\"}"), out);
        assertEquals(1, control.restarts);
        assertEquals(0, control.stops);
    }

    @Test
    void reloadIsAskedForWithTheTokenAndRefusedWith409WhileOneIsUnderWay() {
        EmbeddedChannel ch = channel(TOKEN, control);
        String refused = exchange(ch, "POST /reload-app HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n");
        assertEquals("HTTP/1.1 403 Forbidden", PipelineHarness.statusLine(refused), refused);
        String out = exchange(ch, "POST /reload-app?token=" + TOKEN + " HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n");
        assertEquals("HTTP/1.1 200 OK", PipelineHarness.statusLine(out), out);
        assertTrue(out.endsWith("{\"status\":\"reloading\"}"), out);
        assertEquals(1, control.reloads);
        control.reloadRefusal = "a reload is under way already (booting)";
        String busy = exchange(ch, "POST /reload-app?token=" + TOKEN + " HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n");
        assertEquals("HTTP/1.1 409 Conflict", PipelineHarness.statusLine(busy), busy);
        assertTrue(busy.endsWith("{\"error\":\"a reload is under way already (booting)\"}"), busy);
        assertEquals(1, control.reloads);
    }

    @ParameterizedTest(name = "{0}: /ready {1}")
    @CsvSource({"BOOTING, 503", "WARMING, 503", "SERVING, 200", "DRAINING, 503"})
    void readyOnlyWhileServingAndHealthyThroughoutWithoutAToken(Lifecycle.Phase phase, int readyStatus) {
        control.phase = phase;
        EmbeddedChannel ch = channel(TOKEN, control);
        String ready = exchange(ch, get("/ready"));
        assertTrue(PipelineHarness.statusLine(ready).startsWith("HTTP/1.1 " + readyStatus), ready);
        String label = phase.name().toLowerCase(java.util.Locale.ROOT);
        assertTrue(ready.endsWith("{\"status\":\"" + (readyStatus == 200 ? "ready" : "not ready") + "\",\"phase\":\""
            + label + "\"}"), ready);
        String health = exchange(ch, get("/health"));
        assertEquals("HTTP/1.1 200 OK", PipelineHarness.statusLine(health), health);
        assertTrue(health.endsWith("{\"status\":\"alive\",\"phase\":\"" + label + "\"}"), health);
        String head = exchange(ch, "HEAD /ready HTTP/1.1\r\nHost: x\r\n\r\n");
        assertTrue(PipelineHarness.undated(head).endsWith("cache-control: no-store\r\n\r\n"), head);
        String post = exchange(ch, "POST /ready HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n");
        assertEquals("HTTP/1.1 405 Method Not Allowed", PipelineHarness.statusLine(post), post);
    }

    @Test
    void threadBacktracesAnswerWhenCollectedAndHoldTheNextRequestMeanwhile() {
        EmbeddedChannel ch = channel(TOKEN, control);
        String pipelined = get("/thread-backtraces?token=" + TOKEN) + get("/stats?token=" + TOKEN);
        assertEquals("", exchange(ch, pipelined), "nothing until the backtraces are collected");
        assertFalse(ch.config().isAutoRead());
        control.backtraces.complete("{\"threads\":[]}");
        ch.runPendingTasks();
        String out = output(ch);
        assertTrue(out.startsWith("HTTP/1.1 200 OK"), out);
        assertTrue(out.indexOf("{\"threads\":[]}") < out.indexOf("{\"fake\":true}"), "in request order: " + out);
        assertTrue(out.endsWith("{\"fake\":true}"), out);
        assertTrue(ch.config().isAutoRead());
    }

    @Test
    void aFailedThreadDumpIs500() {
        EmbeddedChannel ch = channel(TOKEN, control);
        exchange(ch, get("/thread-backtraces?token=" + TOKEN));
        control.backtraces.completeExceptionally(new IllegalStateException("boom"));
        ch.runPendingTasks();
        String out = output(ch);
        assertEquals("HTTP/1.1 500 Internal Server Error", PipelineHarness.statusLine(out), out);
        assertTrue(out.contains("boom"), out);
    }

    @Test
    void aMalformedRequestIs400AndCloses() {
        EmbeddedChannel ch = channel(TOKEN, control);
        String out = exchange(ch, "GET /stats HTTP/1.1\r\nHost: x\r\nContent-Length: nope\r\n\r\n");
        assertEquals("HTTP/1.1 400 Bad Request", PipelineHarness.statusLine(out), out);
        assertFalse(ch.isOpen());
    }

    @Test
    void servesTheRealStatsAsJson() {
        ServerStats stats = new ServerStats(1_000_000_000L, new ServerStats.Process(7, Lifecycle.Phase.SERVING, null, null), 2, 0, 5, 1, 0, new WorkerPool.Load(0, 2, 8, 0), 1, 0, 0,
            PubSub.State.LOCAL, new ServerStats.Heap(10, 20));
        ControlActions real = new ServerControl(() -> stats, () -> "", task -> false, (request, sink) -> { }, 1000, new Orders(),
            new Lifecycle());
        String out = exchange(channel(TOKEN, real), get("/stats?token=" + TOKEN));
        assertTrue(out.endsWith("\r\n\r\n" + stats.toJson()), out);
        assertTrue(out.contains("\"requests\":{\"in_flight\":0,\"total\":5,\"errors\":1,\"rejected\":0}"), out);
    }
}
