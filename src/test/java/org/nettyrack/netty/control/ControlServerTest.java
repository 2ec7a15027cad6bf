package org.nettyrack.netty.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.BindException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.nettyrack.core.RackHandler;
import org.nettyrack.core.ResponseHeaders;
import org.nettyrack.core.config.Bind;
import org.nettyrack.core.config.ServerConfig;
import org.nettyrack.core.ops.Orders;
import org.nettyrack.core.push.LocalPubSub;
import org.nettyrack.netty.NettyServer;

/** A NettyServer with its control endpoint, over real sockets with the JDK's HTTP client. */
@Timeout(value = 60, unit = TimeUnit.SECONDS) // the unix socket client's blocking reads have no timeout of their own
class ControlServerTest {
    private static final String TOKEN = "t0ken";
    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private NettyServer server;

    /** An app that answers "ok", and reports a Ruby backtrace for the thread it last ran on. */
    private static final class App implements RackHandler {
        volatile long lastThread = -1;

        @Override
        @SuppressWarnings("deprecation") // Thread.getId: the JVM ids ThreadMXBean reports
        public void handle(org.nettyrack.core.RackRequest request, org.nettyrack.core.ResponseSink sink) {
            lastThread = Thread.currentThread().getId();
            byte[] body = "ok".getBytes(StandardCharsets.US_ASCII);
            sink.respond(200, new ResponseHeaders(), body, 0, body.length);
        }

        @Override
        public Map<Long, List<String>> backtraces() {
            return Map.of(lastThread, List.of("config.ru:1:in 'call'"));
        }
    }

    private final App app = new App();

    private String start(String token) throws Exception {
        ServerConfig config = ServerConfig.builder().bind("127.0.0.1", 0).threads(1, 2).control("127.0.0.1", 0, token).build();
        server = new NettyServer(config, app, new LocalPubSub());
        server.start();
        assertTrue(server.controlUrl().matches("tcp://127\\.0\\.0\\.1:\\d+"), server.controlUrl());
        return "http://" + server.controlUrl().substring("tcp://".length());
    }

    @AfterEach
    void stop() throws InterruptedException {
        if (server != null) {
            server.stop();
        }
    }

    private HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
        return client.send(request.timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void reportsStatsThatMoveWithTraffic() throws Exception {
        String control = start(TOKEN);
        HttpRequest.Builder stats = HttpRequest.newBuilder(URI.create(control + "/stats")).header("Authorization", "Bearer " + TOKEN);
        HttpResponse<String> before = send(stats);
        assertEquals(200, before.statusCode());
        assertTrue(before.body().contains("\"total\":0,"), before.body());
        assertTrue(before.body().contains("\"pubsub\":{\"engine\":\"local\"}"), before.body());

        assertEquals("ok", send(HttpRequest.newBuilder(URI.create(server.urls().get(0) + "/x"))).body());
        // Counted once the last byte is written, which the client may see a moment before the server does.
        String after = until(stats, body -> body.contains("\"total\":1,"));
        assertTrue(after.contains("\"in_flight\":0,"), after);
        assertTrue(after.contains("\"workers\":{\"busy\":0,\"threads\":"), after);
    }

    /** The first body the predicate accepts, asking again for at most 5 s. */
    private String until(HttpRequest.Builder request, java.util.function.Predicate<String> accepted) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        String body;
        do {
            body = send(request).body();
        } while (!accepted.test(body) && System.nanoTime() < deadline);
        return body;
    }

    @Test
    void refusesAWrongTokenWith403AndNothingElse() throws Exception {
        String control = start(TOKEN);
        HttpResponse<String> refused = send(HttpRequest.newBuilder(URI.create(control + "/stats?token=nope")));
        assertEquals(403, refused.statusCode());
        assertEquals("", refused.body());
    }

    @Test
    void dumpsThreadsWithTheAppsBacktracesReadOnAWorker() throws Exception {
        String control = start(null);
        send(HttpRequest.newBuilder(URI.create(server.urls().get(0) + "/x")));
        String dump = send(HttpRequest.newBuilder(URI.create(control + "/thread-backtraces"))).body();
        assertTrue(dump.startsWith("{\"ruby_backtraces\":\"included\""), dump.substring(0, 80));
        assertTrue(dump.matches("(?s).*\"name\":\"nettyrack-worker-\\d+\".*\"ruby\":\\[\"config\\.ru:1:in 'call'\"\\].*"),
            "a worker with the app's backtrace");
        assertTrue(dump.contains("\"name\":\"nettyrack-control-"), "the control loop itself");
    }

    @Test
    void passesStopOnOnceAnswered() throws Exception {
        String control = start(TOKEN);
        CompletableFuture<Orders.Order> waiter = CompletableFuture.supplyAsync(() -> {
            try {
                return server.orders().await();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        assertFalse(waiter.isDone());
        HttpResponse<String> stop = send(HttpRequest.newBuilder(URI.create(control + "/stop?token=" + TOKEN))
            .POST(HttpRequest.BodyPublishers.noBody()));
        assertEquals(200, stop.statusCode());
        assertEquals(new Orders.Order(Orders.Kind.STOP, "control /stop"), waiter.get(5, TimeUnit.SECONDS));
        assertTrue(server.isRunning(), "stopping is the waiter's job");
    }

    @Test
    void namesTheControlAddressWhenItIsTaken() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
            ServerConfig config = ServerConfig.builder().bind("127.0.0.1", 0).threads(1, 1)
                .control("127.0.0.1", taken.getLocalPort(), TOKEN).build();
            server = new NettyServer(config, app);
            BindException e = assertThrows(BindException.class, server::start);
            assertEquals("control endpoint: 127.0.0.1:" + taken.getLocalPort() + " is already in use", e.getMessage());
            assertFalse(server.isRunning(), "the application's listener closed again");
        }
    }

    @Test
    void listensOnAUnixSocketAndRefusesALiveOne(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        java.nio.file.Path socket = dir.resolve("ctl.sock");
        Bind unix = new Bind("unix", null, 0, socket.toString(), Map.of());
        server = new NettyServer(ServerConfig.builder().bind("127.0.0.1", 0).threads(1, 1).control(unix, TOKEN).build(), app);
        server.start();
        assertEquals("unix://" + socket, server.controlUrl());
        try (java.nio.channels.SocketChannel client =
                 java.nio.channels.SocketChannel.open(java.net.UnixDomainSocketAddress.of(socket))) {
            client.write(java.nio.ByteBuffer.wrap(("GET /stats HTTP/1.1\r\nhost: x\r\nauthorization: Bearer " + TOKEN
                + "\r\nconnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII)));
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
            java.nio.ByteBuffer buffer = java.nio.ByteBuffer.allocate(4096);
            while (client.read(buffer) >= 0) {
                out.write(buffer.array(), 0, buffer.position());
                buffer.clear();
            }
            String response = out.toString(StandardCharsets.US_ASCII);
            assertTrue(response.startsWith("HTTP/1.1 200 OK\r\n") && response.contains("\"requests\":{"), response);
        }
        NettyServer second = new NettyServer(ServerConfig.builder().bind("127.0.0.1", 0).threads(1, 1).control(unix, TOKEN).build(), app);
        BindException e = assertThrows(BindException.class, second::start);
        assertEquals("control endpoint: unix://" + socket + " is in use by another server", e.getMessage());
        server.stop();
        assertFalse(java.nio.file.Files.exists(socket), "the socket file goes with the server");
    }
}
