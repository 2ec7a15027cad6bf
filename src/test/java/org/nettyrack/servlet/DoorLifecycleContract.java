package org.nettyrack.servlet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.net.http.WebSocketHandshakeException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Web apps of their own, each in a new container of the contract's kind beside door.ru's: a boot
 * error fails the deployment; the threads setting caps how many requests run the app at once,
 * queue-size how many wait (503 beyond); and
 * RackServlet under a path with public.root, undeployed and redeployed three times: its pushes get
 * on_shutdown and on_close, a late upgrade gets 503, the runtime stops, no Ruby thread is left.
 */
abstract non-sealed class DoorLifecycleContract extends DoorConcern {
    DoorLifecycleContract(ServletDoorContract door) {
        super(door);
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
    void requestsBeyondQueueSizeAre503(@TempDir Path dir) throws Exception {
        Path entered = dir.resolve("entered");
        Path release = dir.resolve("release");
        // /hold takes the one worker until the test writes the release file (30 s at most).
        String rackup = "run(lambda do |env|\n"
            + "  if env['PATH_INFO'] == '/hold'\n"
            + "    File.write(" + rubyString(entered.toString()) + ", 'in')\n"
            + "    600.times { break if File.exist?(" + rubyString(release.toString()) + "); sleep 0.05 }\n"
            + "  end\n"
            + "  [200, {}, ['ran']]\n"
            + "end)\n";
        Path root = new WebApp(dir.resolve("one")).param("rackup", rackup).param("threads", "1")
            .param("queue-size", "1").build();
        try (Container one = newContainer()) {
            assertTrue(one.deploy(root, "/one"), () -> "deployment failed: " + one.failure());
            HttpRequest hold = HttpRequest.newBuilder(one.base().resolve("hold")).timeout(WAIT).build();
            CompletableFuture<HttpResponse<String>> holding = client.sendAsync(hold, HttpResponse.BodyHandlers.ofString());
            long limit = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!Files.exists(entered)) {
                assertTrue(System.nanoTime() < limit, "the first request never reached the app");
                Thread.sleep(20);
            }
            // The worker is busy: of two more requests one waits in the queue of one, the other is refused.
            HttpRequest more = HttpRequest.newBuilder(one.base().resolve("more")).timeout(WAIT).build();
            CompletableFuture<HttpResponse<String>> second = client.sendAsync(more, HttpResponse.BodyHandlers.ofString());
            CompletableFuture<HttpResponse<String>> third = client.sendAsync(more, HttpResponse.BodyHandlers.ofString());
            CompletableFuture.anyOf(second, third).get(60, TimeUnit.SECONDS);
            Files.writeString(release, "go");
            List<Integer> statuses = List.of(second.get(60, TimeUnit.SECONDS).statusCode(),
                third.get(60, TimeUnit.SECONDS).statusCode());
            assertEquals(List.of(200, 503), statuses.stream().sorted().toList());
            assertEquals("ran", holding.get(60, TimeUnit.SECONDS).body());
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

    private static String rubyString(String text) {
        return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'";
    }
}
