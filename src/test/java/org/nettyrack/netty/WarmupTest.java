package org.nettyrack.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.nettyrack.core.RackHandler;
import org.nettyrack.core.ResponseHeaders;
import org.nettyrack.core.config.ServerConfig;
import org.nettyrack.core.ops.Lifecycle;
import org.nettyrack.core.warmup.WarmupPlan;
import org.nettyrack.core.warmup.WarmupProgress;
import org.nettyrack.core.warmup.WarmupReport;

/** A warm-up runs real requests through the application before the server accepts, and says what it did. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WarmupTest {
    private final Set<String> seen = ConcurrentHashMap.newKeySet();
    private final ByteArrayOutputStream accessLog = new ByteArrayOutputStream();
    private final CountDownLatch release = new CountDownLatch(1);
    private NettyServer server;

    private final RackHandler app = (request, sink) -> {
        String line = request.method() + " " + request.target() + " host=" + request.header("host")
            + " body=" + request.body().length();
        seen.add(line);
        if (request.target().equals("/slow")) {
            try {
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        int status = request.target().equals("/boom") ? 500 : 200;
        byte[] body = "ok".getBytes(StandardCharsets.US_ASCII);
        sink.respond(status, new ResponseHeaders(), body, 0, body.length);
    };

    @AfterEach
    void stop() throws Exception {
        release.countDown();
        if (server != null) {
            server.stop();
        }
    }

    private NettyServer open() throws Exception {
        server = new NettyServer(ServerConfig.builder().bind("127.0.0.1", 0).threads(2, 2).accessLog(accessLog)
            .shutdownTimeoutMillis(1_000).build(), app);
        server.open();
        return server;
    }

    private static WarmupPlan.Request request(String method, String target, String body) {
        return new WarmupPlan.Request(method, target, List.of(new WarmupPlan.Header("x-warm", "1")),
            body.getBytes(StandardCharsets.US_ASCII));
    }

    @Test
    void runsTheRequestsInTurnUntilItsCountDroppingOnesThatFail() throws Exception {
        open();
        WarmupPlan plan = new WarmupPlan(List.of(request("GET", "/", ""), request("POST", "/search", "q=shoes"),
            request("GET", "/boom", "")), 2, "example.test:80", 30_000, 200);
        WarmupReport report = server.warmUp(plan).get(30, TimeUnit.SECONDS);

        assertEquals(WarmupProgress.Stop.COUNT, report.stop());
        assertTrue(report.answered() >= 200, report.summary());
        assertEquals(List.of("GET /boom: 500"), report.failures(), "reported once, then out of the rotation");
        assertTrue(seen.containsAll(List.of("GET / host=example.test:80 body=0", "POST /search host=example.test:80 body=7",
            "GET /boom host=example.test:80 body=0")), seen.toString());
        assertEquals(0, server.stats().requestsTotal(), "not counted as traffic");
        assertEquals("", accessLog.toString(StandardCharsets.UTF_8), "not logged");
        assertEquals(Lifecycle.Phase.WARMING, server.lifecycle().phase());
    }

    @Test
    void everyRequestFailingEndsIt() throws Exception {
        open();
        WarmupReport report = server.warmUp(new WarmupPlan(List.of(request("GET", "/boom", "")), 1, "h", 30_000, 0))
            .get(30, TimeUnit.SECONDS);
        assertEquals(WarmupProgress.Stop.FAILED, report.stop());
        assertEquals(List.of("GET /boom: 500"), report.failures());
    }

    @Test
    void aStopCancelsItAtOnce() throws Exception {
        open();
        var done = server.warmUp(new WarmupPlan(List.of(request("GET", "/slow", "")), 1, "h", 30_000, 0));
        server.cancelWarmUp();
        assertEquals(WarmupProgress.Stop.CANCELLED, done.get(30, TimeUnit.SECONDS).stop());
    }

    @Test
    void nothingIsAcceptedBeforeServeAndTheWaitingClientIsServedAfter() throws Exception {
        open();
        URI uri = URI.create(server.urls().get(0) + "/first");
        HttpClient client = HttpClient.newHttpClient();
        HttpRequest request = HttpRequest.newBuilder(uri).timeout(Duration.ofMillis(500)).build();
        assertThrows(HttpTimeoutException.class, () -> client.send(request, HttpResponse.BodyHandlers.ofString()),
            "no answer while booting: the connection waits in the backlog");
        var waiting = client.sendAsync(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(20)).build(),
            HttpResponse.BodyHandlers.ofString());
        server.serve();
        assertEquals(200, waiting.get(30, TimeUnit.SECONDS).statusCode());
        assertEquals(Lifecycle.Phase.SERVING, server.lifecycle().phase());
    }
}
