package org.nettyrack.servlet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.net.http.WebSocketHandshakeException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.nettyrack.redis.RedisPubSub;
import org.nettyrack.redis.RedisServer;

/**
 * The servlet door in a real container, over real HTTP: the web app of {@link WebApp} with
 * door.ru, deployed at /app, answering java.net.http.HttpClient. Subclasses name the container.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 120, unit = TimeUnit.SECONDS)
abstract class ServletDoorContract {
    private static final Duration WAIT = Duration.ofSeconds(30);

    private Container container;
    private Path marker;
    private final HttpClient client = HttpClient.newBuilder().connectTimeout(WAIT).build();

    abstract Container newContainer();

    @BeforeAll
    void deploy(@TempDir Path tmp) throws Exception {
        marker = tmp.resolve("marker");
        Path root = new WebApp(tmp.resolve("webapp"))
            .rackup(fixture("door.ru"))
            .file("hello.txt", "static hello\n")
            .param("test.marker", marker.toString())
            .param("body-buffer", "1k")
            .param("max-body-size", "64k")
            .param("max-push-queue", "64k")
            .param("max-message-size", "4k")
            .param("jruby.max.runtimes", "4")
            .build();
        container = newContainer();
        assertTrue(container.deploy(root, "/app"), () -> "deployment failed: " + container.failure());
    }

    @AfterAll
    void stop() throws Exception {
        if (container != null) {
            container.close();
        }
    }

    @Test
    void envUnderAContextPath() throws Exception {
        HttpResponse<String> response = send(HttpRequest.newBuilder(url("hello/world?x=1&y=%20")).header("X-Test", "yes"));
        assertEquals(200, response.statusCode());
        String body = response.body();
        for (String line : new String[] {"REQUEST_METHOD=GET", "SCRIPT_NAME=/app", "PATH_INFO=/hello/world",
            "QUERY_STRING=x=1&y=%20", "SERVER_PROTOCOL=HTTP/1.1", "HTTP_X_TEST=yes", "rack.url_scheme=http",
            "rack.upgrade?=", "input=0:"}) {
            assertTrue(body.contains(line + "\n"), () -> line + " missing from:\n" + body);
        }
    }

    /** RFC 9110 6.6.1: the server's Date unless the application gave one, and never two. */
    @Test
    void everyAnswerCarriesOneDate() throws Exception {
        HttpResponse<String> plain = send(HttpRequest.newBuilder(url("hello")));
        List<String> dates = plain.headers().allValues("date");
        assertEquals(1, dates.size(), dates::toString);
        assertTrue(dates.get(0).matches("[A-Z][a-z]{2}, \\d{2} [A-Z][a-z]{2} \\d{4} \\d{2}:\\d{2}:\\d{2} GMT"), dates::toString);
        assertEquals(List.of("Sun, 06 Nov 1994 08:49:37 GMT"), send(HttpRequest.newBuilder(url("dated"))).headers().allValues("date"));
        HttpResponse<String> refused = send(HttpRequest.newBuilder(url("sse")));
        assertEquals(406, refused.statusCode());
        assertEquals(1, refused.headers().allValues("date").size(), () -> refused.headers().toString());
    }

    @Test
    void contextRootItself() throws Exception {
        String body = send(HttpRequest.newBuilder(url(""))).body();
        assertTrue(body.contains("SCRIPT_NAME=/app\nPATH_INFO=/\n"), body);
    }

    @Test
    void postBodyIsRackInput() throws Exception {
        HttpResponse<String> response = send(HttpRequest.newBuilder(url("echo")).header("Content-Type", "text/plain")
            .POST(HttpRequest.BodyPublishers.ofString("hello body")));
        String body = response.body();
        assertTrue(body.contains("REQUEST_METHOD=POST\n"), body);
        assertTrue(body.contains("CONTENT_TYPE=text/plain\n"), body);
        assertTrue(body.contains("CONTENT_LENGTH=10\n"), body);
        assertTrue(body.contains("input=10:hello body\n"), body);
    }

    @Test
    void rackLintAcceptsTheEnv() throws Exception {
        assertEquals("lint ok 0\n", send(HttpRequest.newBuilder(url("lint"))).body());
        assertEquals("lint ok 5\n", send(HttpRequest.newBuilder(url("lint")).POST(HttpRequest.BodyPublishers.ofString("hello"))).body());
    }

    @Test
    void toPathBodyIsSentWhole() throws Exception {
        HttpResponse<String> response = send(HttpRequest.newBuilder(url("file")));
        assertEquals(200, response.statusCode());
        assertEquals(fixture("door.ru"), response.body());
    }

    @Test
    void headGetsTheLengthAndNoBody() throws Exception {
        HttpResponse<String> response = send(HttpRequest.newBuilder(url("file")).method("HEAD", HttpRequest.BodyPublishers.noBody()));
        assertEquals(200, response.statusCode());
        assertEquals(String.valueOf(fixture("door.ru").getBytes(StandardCharsets.UTF_8).length),
            response.headers().firstValue("content-length").orElse(""));
        assertEquals("", response.body());
    }

    @Test
    void bodyBeyondTheBufferIsSpooledWhole() throws Exception {
        String big = "0123456789abcdef".repeat(3000); // 48000 bytes: beyond body-buffer 1k, within 64k
        String body = send(HttpRequest.newBuilder(url("echo")).POST(HttpRequest.BodyPublishers.ofString(big))).body();
        assertTrue(body.contains("input=48000:" + big.substring(0, 64) + "\n"), body);
    }

    @Test
    void bodyBeyondMaxBodySizeIs413() throws Exception {
        HttpResponse<String> response = send(HttpRequest.newBuilder(url("echo"))
            .POST(HttpRequest.BodyPublishers.ofString("x".repeat(70_000))));
        assertEquals(413, response.statusCode());
        assertEquals("413 Request Entity Too Large\n", response.body());
    }

    @Test
    void bodyStreamsAsItYields() throws Exception {
        HttpResponse<InputStream> response = client.send(HttpRequest.newBuilder(url("stream")).timeout(WAIT).build(),
            HttpResponse.BodyHandlers.ofInputStream());
        assertEquals(200, response.statusCode());
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
            // The body waits for /release after its first part: that part must already be here.
            String first = CompletableFuture.supplyAsync(() -> readLine(reader)).get(30, TimeUnit.SECONDS);
            assertEquals("first", first);
            assertEquals("released\n", send(HttpRequest.newBuilder(url("release"))).body());
            assertEquals("second", readLine(reader));
            assertNull(readLine(reader));
        }
    }

    @Test
    void bodyFailingBeforeItsFirstByteIs500() throws Exception {
        HttpResponse<String> response = send(HttpRequest.newBuilder(url("fails-at-once")));
        assertEquals(500, response.statusCode());
        assertEquals("Internal Server Error\n", response.body());
        // Jetty writes the type it parsed from the header ("text/plain;charset=utf-8").
        assertEquals("text/plain;charset=utf-8", response.headers().firstValue("content-type").orElse("").replace(" ", ""));
    }

    @Test
    void bodyFailingAfterItsFirstByteCutsTheResponse() {
        assertThrows(IOException.class, () -> send(HttpRequest.newBuilder(url("fails-halfway"))));
    }

    @Test
    void staticFileIsServedByTheContainer() throws Exception {
        HttpResponse<String> response = send(HttpRequest.newBuilder(url("hello.txt")));
        assertEquals(200, response.statusCode());
        assertEquals("static hello\n", response.body());
        assertFalse(response.headers().firstValue("x-app").isPresent(), "the Rack app answered a static file");
    }

    @Test
    void webInfIsNeverStatic() throws Exception {
        HttpResponse<String> response = send(HttpRequest.newBuilder(url("WEB-INF/config.ru")));
        assertFalse(response.body().contains("RELEASE = Queue.new"), response.body());
    }

    /**
     * JRuby's thread locals must not stay on the container's threads, which outlive the web app;
     * and a plain request is async while the app runs, its container thread back with the container.
     */
    @Test
    void appRunsOnTheDoorsWorkersNotTheContainersThreads() throws Exception {
        String thread = send(HttpRequest.newBuilder(url("thread"))).body();
        assertTrue(thread.startsWith("nettyrack-worker-"), thread);
        assertTrue(thread.endsWith(" async=true"), thread);
    }

    @Test
    void servletObjectsAreInTheEnv() throws Exception {
        assertEquals("GET /app/servlet true /app\n", send(HttpRequest.newBuilder(url("servlet"))).body());
    }

    @Test
    void webSocketEcho() throws Exception {
        Messages messages = new Messages();
        WebSocket socket = client.newWebSocketBuilder().buildAsync(ws("ws"), messages).get(30, TimeUnit.SECONDS);
        assertEquals("open /app/ws", messages.next());
        socket.sendText("héllo", true).get(30, TimeUnit.SECONDS);
        assertEquals("echo: héllo", messages.next());
        socket.sendText("bye", true).get(30, TimeUnit.SECONDS);
        assertEquals("echo: bye", messages.next());
        assertEquals("closed 1000", messages.next());
    }

    /** A third-party client: Python's websockets, from the toolchain's venv. */
    @Test
    void pythonWebSocketsClientEchoes() throws Exception {
        String script = String.join("\n",
            "import sys",
            "from websockets.sync.client import connect",
            "with connect(sys.argv[1], open_timeout=30) as ws:",
            "    print(ws.recv(timeout=30))",
            "    ws.send('from python')",
            "    print(ws.recv(timeout=30))");
        Process python = new ProcessBuilder(".toolchain/python/bin/python", "-c", script, ws("ws").toString())
            .redirectErrorStream(true).start();
        assertTrue(python.waitFor(60, TimeUnit.SECONDS), "python did not finish");
        assertEquals("open /app/ws\necho: from python\n", new String(python.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        assertEquals(0, python.exitValue());
    }

    @Test
    void webSocketPubSubReachesEveryConnection() throws Exception {
        Messages first = new Messages();
        Messages second = new Messages();
        WebSocket a = client.newWebSocketBuilder().buildAsync(ws("room"), first).get(30, TimeUnit.SECONDS);
        WebSocket b = client.newWebSocketBuilder().buildAsync(ws("room"), second).get(30, TimeUnit.SECONDS);
        assertEquals("joined", first.next());
        assertEquals("joined", second.next());
        a.sendText("hi all", true).get(30, TimeUnit.SECONDS);
        assertEquals("hi all", first.next());
        assertEquals("hi all", second.next());
        a.sendClose(WebSocket.NORMAL_CLOSURE, "").get(30, TimeUnit.SECONDS);
        b.sendClose(WebSocket.NORMAL_CLOSURE, "").get(30, TimeUnit.SECONDS);
    }

    @Test
    void nettyrackPublishReachesSubscribersOfTheWebApp() throws Exception {
        Messages messages = new Messages();
        WebSocket socket = client.newWebSocketBuilder().buildAsync(ws("room"), messages).get(30, TimeUnit.SECONDS);
        assertEquals("joined", messages.next());
        assertEquals("true", send(HttpRequest.newBuilder(url("publish"))).body());
        assertEquals("from http", messages.next());
        socket.sendClose(WebSocket.NORMAL_CLOSURE, "").get(30, TimeUnit.SECONDS);
    }

    /**
     * The pubsub context param, as the CLI's --pubsub: the web app's subscribers hear what
     * another process's Redis engine publishes, and it hears the web app's Nettyrack.publish.
     */
    @Test
    void redisEngineSharesChannelsWithOtherProcesses(@TempDir Path dir) throws Exception {
        String rackup = "class Sub\n"
            + "  def on_open(client) = client.subscribe('news') && client.write('subscribed')\n"
            + "end\n"
            + "run lambda { |env|\n"
            + "  next [200, {}, [Nettyrack.publish('news', 'from the web app').to_s]] unless env['rack.upgrade?']\n"
            + "  env['rack.upgrade'] = Sub.new\n"
            + "  [101, {}, []]\n"
            + "}\n";
        BlockingQueue<String> heard = new LinkedBlockingQueue<>();
        try (RedisServer redis = RedisServer.start();
             RedisPubSub elsewhere = RedisPubSub.builder(redis.url()).start();
             Container inline = newContainer()) {
            elsewhere.subscribe("news", message -> heard.add(new String(message.data(), StandardCharsets.UTF_8)));
            Path root = new WebApp(dir.resolve("redis")).param("rackup", rackup).param("pubsub", redis.url()).build();
            assertTrue(inline.deploy(root, "/redis"), () -> "deployment failed: " + inline.failure());
            Messages messages = new Messages();
            client.newWebSocketBuilder().buildAsync(URI.create(inline.base().resolve("ws").toString()
                .replaceFirst("^http", "ws")), messages).get(30, TimeUnit.SECONDS);
            assertEquals("subscribed", messages.next());
            // Subscriptions reach Redis in the background: publish until the other side has one.
            String got = null;
            for (int i = 0; i < 60 && got == null; i++) {
                elsewhere.publish("news", "from elsewhere".getBytes(StandardCharsets.UTF_8));
                got = messages.received.poll(500, TimeUnit.MILLISECONDS);
            }
            assertEquals("from elsewhere", got);
            String back = null;
            for (int i = 0; i < 60 && back == null; i++) {
                assertEquals("true", send(HttpRequest.newBuilder(inline.base().resolve("publish"))).body());
                do {
                    back = heard.poll(500, TimeUnit.MILLISECONDS);
                } while ("from elsewhere".equals(back));
            }
            assertEquals("from the web app", back);
        }
    }

    @Test
    void clientThatDoesNotReadIsClosedWith1008AtTheQueueLimit() throws Exception {
        Messages messages = new Messages(false);
        WebSocket socket = client.newWebSocketBuilder().buildAsync(ws("flood"), messages).get(30, TimeUnit.SECONDS);
        assertEquals("refused write", send(HttpRequest.newBuilder(url("flood-result"))).body().replaceAll(" \\d+,.*", ""));
        socket.request(Long.MAX_VALUE);
        String last;
        do {
            last = messages.next();
        } while (last.startsWith("xxxx"));
        assertEquals("closed 1008", last);
    }

    @Test
    void messageOverMaxMessageSizeIsClosedWith1009() throws Exception {
        Messages messages = new Messages();
        WebSocket socket = client.newWebSocketBuilder().buildAsync(ws("ws"), messages).get(30, TimeUnit.SECONDS);
        assertEquals("open /app/ws", messages.next());
        socket.sendText("y".repeat(5000), true).get(30, TimeUnit.SECONDS); // max-message-size 4k
        assertEquals("closed 1009", messages.next());
    }

    @Test
    void idleWebSocketIsPinged() throws Exception {
        Messages messages = new Messages();
        WebSocket socket = client.newWebSocketBuilder().buildAsync(ws("pinged"), messages).get(30, TimeUnit.SECONDS);
        assertEquals("open", messages.next());
        assertEquals("ping", messages.next()); // client.timeout = 0.2 in on_open
        socket.sendClose(WebSocket.NORMAL_CLOSURE, "").get(30, TimeUnit.SECONDS);
    }

    @Test
    void sseStreamsEventsAndKeepAlivesUntilTheClientGoes() throws Exception {
        HttpResponse<InputStream> response = client.send(HttpRequest.newBuilder(url("sse"))
            .header("Accept", "text/event-stream").timeout(WAIT).build(), HttpResponse.BodyHandlers.ofInputStream());
        // The app answered 101 with text/html: the core's rules make it a 200 event stream.
        assertEquals(200, response.statusCode());
        assertEquals("text/event-stream", response.headers().firstValue("content-type").orElse(""));
        assertEquals("no-cache", response.headers().firstValue("cache-control").orElse(""));
        assertEquals("rack", response.headers().firstValue("x-upgraded-by").orElse(""));
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
            StringBuilder events = new StringBuilder();
            for (int i = 0; i < 6; i++) {
                events.append(readLine(reader)).append('\n');
            }
            assertEquals("data: hello\n\nid: 2\nevent: greet\ndata: second\n\n", events.toString());
            assertEquals(":", readLine(reader)); // the keep-alive comment, client.timeout = 0.2
        }
        assertEquals("closed", send(HttpRequest.newBuilder(url("sse-closed"))).body());
    }

    @Test
    void sseClientThatDoesNotReadIsCutOffAtTheQueueLimit() throws Exception {
        try (Socket socket = new Socket()) {
            socket.setReceiveBufferSize(16 * 1024);
            socket.connect(new InetSocketAddress("127.0.0.1", url("").getPort()), 30_000);
            socket.setSoTimeout(30_000);
            socket.getOutputStream().write(("GET " + url("sse-flood").getPath() + " HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                + "Accept: text/event-stream\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            assertEquals("refused write, open? false",
                send(HttpRequest.newBuilder(url("flood-result"))).body().replaceAll(" \\d+,", ","));
            byte[] all = socket.getInputStream().readAllBytes(); // the stream ends: EOF, not a timeout
            String head = new String(all, 0, Math.min(all.length, 200), StandardCharsets.ISO_8859_1);
            assertTrue(head.startsWith("HTTP/1.1 200"), head);
            assertTrue(head.toLowerCase(java.util.Locale.ROOT).contains("content-type: text/event-stream"), head);
        }
    }

    @Test
    void plainRequestToAnSseRouteIsNotUpgraded() throws Exception {
        assertEquals(406, send(HttpRequest.newBuilder(url("sse"))).statusCode());
    }

    @Test
    void plainRequestToAWebSocketRouteIsNotUpgraded() throws Exception {
        HttpResponse<String> response = send(HttpRequest.newBuilder(url("ws")));
        assertEquals(426, response.statusCode());
    }

    @Test
    void bootErrorFailsTheDeployment(@TempDir Path dir) throws Exception {
        Path root = new WebApp(dir.resolve("broken")).rackup("run lambda { |env|\n").build();
        try (Container broken = newContainer()) {
            assertFalse(broken.deploy(root, "/broken"), "a config.ru with a syntax error deployed");
        }
    }

    @Test
    void noMoreThanThreadsRequestsRunTheAppAtOnce(@TempDir Path dir) throws Exception {
        // Each request waits up to 3 s in the app for a second one to be there too.
        String rackup = "BOTH = java.util.concurrent.CyclicBarrier.new(2)\n"
            + "run(lambda do |env|\n"
            + "  BOTH.await(3, java.util.concurrent.TimeUnit::SECONDS)\n"
            + "  [200, {}, ['together']]\n"
            + "rescue java.util.concurrent.TimeoutException, java.util.concurrent.BrokenBarrierException\n"
            + "  [200, {}, ['alone']]\n"
            + "end)\n";
        Path root = new WebApp(dir.resolve("one")).param("rackup", rackup).param("threads", "1").build();
        try (Container one = newContainer()) {
            assertTrue(one.deploy(root, "/one"), () -> "deployment failed: " + one.failure());
            HttpRequest request = HttpRequest.newBuilder(one.base().resolve("x")).timeout(WAIT).build();
            CompletableFuture<HttpResponse<String>> first = client.sendAsync(request, HttpResponse.BodyHandlers.ofString());
            CompletableFuture<HttpResponse<String>> second = client.sendAsync(request, HttpResponse.BodyHandlers.ofString());
            assertEquals("alone alone", first.get(60, TimeUnit.SECONDS).body() + " " + second.get(60, TimeUnit.SECONDS).body());
        }
    }

    @Test
    @Timeout(value = 300, unit = TimeUnit.SECONDS) // three redeploys: over 120 s on a loaded machine
    void servletUnderAPathWithPublicRootAndRedeploys(@TempDir Path dir) throws Exception {
        Path stopped = dir.resolve("stopped");
        Path pushLog = dir.resolve("push.log");
        String rackup = "at_exit { File.write(" + rubyString(stopped.toString()) + ", 'runtime stopped') }\n"
            + "LOG = " + rubyString(pushLog.toString()) + "\n"
            + "LATE = java.util.concurrent.LinkedBlockingQueue.new\n" // poll with a timeout on Ruby 3.1 (JRuby 9.4) too
            + "ENTERED = java.util.concurrent.LinkedBlockingQueue.new\n"
            + "class Ws\n"
            + "  def on_open(client) = client.write('hello')\n"
            + "  def on_shutdown(client)\n"
            + "    File.write(LOG, \"on_shutdown #{client.env['rack.upgrade?']}\\n\", mode: 'a')\n"
            + "    LATE.put('go') if client.env['rack.upgrade?'] == :websocket # the door's close has begun\n"
            + "  end\n"
            + "  def on_close(client) = File.write(LOG, \"on_close #{client.env['rack.upgrade?']}\\n\", mode: 'a')\n"
            + "end\n"
            + "run lambda { |env|\n"
            + "  next [200, {}, [ENTERED.poll(30, java.util.concurrent.TimeUnit::SECONDS).to_s]] if env['PATH_INFO'] == '/entered'\n"
            + "  next [200, {}, [\"#{env['SCRIPT_NAME']} #{env['PATH_INFO']}\"]] unless env['rack.upgrade?']\n"
            + "  if env['PATH_INFO'] == '/late'\n" // accepted once the web app began to stop (on_shutdown)
            + "    ENTERED.put('in')\n"
            + "    LATE.poll(30, java.util.concurrent.TimeUnit::SECONDS)\n"
            + "    env['rack.upgrade'] = Object.new\n"
            + "    next [101, {}, []]\n"
            + "  end\n"
            + "  env['rack.upgrade'] = Ws.new\n"
            + "  [101, {}, []]\n"
            + "}\n";
        Path root = new WebApp(dir.resolve("inline")).param("rackup", rackup).servlet("/rack/*")
            .param("public.root", "/public").file("public/rack/static.txt", "static under public.root\n").build();
        Set<Thread> before = Thread.getAllStackTraces().keySet();
        try (Container inline = newContainer()) {
            assertTrue(inline.deploy(root, "/inline"), () -> "deployment failed: " + inline.failure());
            assertEquals("static under public.root\n", send(HttpRequest.newBuilder(inline.base().resolve("rack/static.txt"))).body());
            for (int round = 1; round <= 3; round++) {
                if (round > 1) {
                    inline.redeploy();
                }
                assertEquals("/inline/rack /x/y", send(HttpRequest.newBuilder(inline.base().resolve("rack/x/y"))).body());
                Messages messages = new Messages();
                client.newWebSocketBuilder().buildAsync(URI.create(inline.base().resolve("rack/ws").toString()
                    .replaceFirst("^http", "ws")), messages).get(30, TimeUnit.SECONDS);
                assertEquals("hello", messages.next());
                HttpResponse<InputStream> sse = client.send(HttpRequest.newBuilder(inline.base().resolve("rack/sse"))
                    .header("Accept", "text/event-stream").timeout(WAIT).build(), HttpResponse.BodyHandlers.ofInputStream());
                BufferedReader events = new BufferedReader(new InputStreamReader(sse.body(), StandardCharsets.UTF_8));
                assertEquals("data: hello", readLine(events));
                assertFalse(Files.exists(stopped));
                CompletableFuture<WebSocket> late = client.newWebSocketBuilder().buildAsync(URI.create(
                    inline.base().resolve("rack/late").toString().replaceFirst("^http", "ws")), new Messages());
                assertEquals("in", send(HttpRequest.newBuilder(inline.base().resolve("rack/entered"))).body());
                inline.undeploy();
                ExecutionException refused = assertThrows(ExecutionException.class, () -> late.get(30, TimeUnit.SECONDS));
                assertEquals(503, ((WebSocketHandshakeException) refused.getCause()).getResponse().statusCode(),
                    () -> "late upgrade: " + refused.getCause());
                assertEquals("runtime stopped", Files.readString(stopped), "round " + round);
                assertEquals(List.of("on_close sse", "on_close websocket", "on_shutdown sse", "on_shutdown websocket"),
                    Files.readAllLines(pushLog).stream().sorted().toList(), "round " + round);
                assertEquals("closed 1001", messages.next());
                assertEquals("", readLine(events));
                assertNull(readLine(events)); // the stream ended with the web app
                events.close();
                Files.delete(stopped);
                Files.delete(pushLog);
            }
            // Gone when undeploy returns: containers check for leaked threads right then.
            Set<String> left = rubyThreads().stream().filter(thread -> !before.contains(thread))
                .map(Thread::getName).collect(Collectors.toSet());
            assertEquals(Set.of(), left);
        }
    }

    /** JRuby's own threads (its JIT's, Ruby threads: Ruby-N-...) and the door's push workers. */
    private static Set<Thread> rubyThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive)
            .filter(thread -> thread.getName().startsWith("Ruby-") || thread.getName().startsWith("nettyrack-"))
            .collect(Collectors.toSet());
    }

    /** Text messages and the close a WebSocket client received, in order. */
    private static final class Messages implements WebSocket.Listener {
        final BlockingQueue<String> received = new LinkedBlockingQueue<>();
        private final StringBuilder partial = new StringBuilder();
        private final boolean reading;

        Messages() {
            this(true);
        }

        /** {@code reading}: false for a client that reads nothing until the test calls request(). */
        Messages(boolean reading) {
            this.reading = reading;
        }

        @Override
        public void onOpen(WebSocket socket) {
            if (reading) {
                socket.request(1);
            }
        }

        @Override
        public CompletionStage<?> onText(WebSocket socket, CharSequence data, boolean last) {
            partial.append(data);
            if (last) {
                received.add(partial.toString());
                partial.setLength(0);
            }
            if (reading) {
                socket.request(1);
            }
            return null;
        }

        @Override
        public CompletionStage<?> onPing(WebSocket socket, java.nio.ByteBuffer message) {
            received.add("ping");
            socket.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onClose(WebSocket socket, int status, String reason) {
            received.add("closed " + status);
            return null;
        }

        @Override
        public void onError(WebSocket socket, Throwable error) {
            received.add("error " + error);
        }

        String next() throws InterruptedException {
            String message = received.poll(30, TimeUnit.SECONDS);
            return message == null ? "nothing within 30 s" : message;
        }
    }

    private URI ws(String path) {
        return URI.create(url(path).toString().replaceFirst("^http", "ws"));
    }

    private HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
        return client.send(request.timeout(WAIT).build(), HttpResponse.BodyHandlers.ofString());
    }

    private URI url(String path) {
        return container.base().resolve(path);
    }

    private static String readLine(BufferedReader reader) {
        try {
            return reader.readLine();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static String rubyString(String text) {
        return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'";
    }

    static String fixture(String name) throws IOException {
        try (InputStream in = ServletDoorContract.class.getResourceAsStream(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
