package org.nettyrack.servlet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * WARs built by {@code nettyrack war} (bin/nettyrack on the toolchain's JRuby, as a person runs
 * it) deployed as they are, the .war file, in Jetty 12 and Tomcat 11 at /shop: war_app (a
 * Gemfile with a test group, Bundler, lib/, public/, a WebSocket echo), examples/sinatra and
 * examples/rails.
 * The web app loads JRuby, its stdlib and nettyrack from the WAR's WEB-INF/lib and its gems
 * from WEB-INF/gems; nothing is passed in context params. Each WAR is built once.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class WarDeploymentTest {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final long BUILD_SECONDS = 300;

    private final HttpClient client = HttpClient.newBuilder().connectTimeout(WAIT).build();
    private Path appWar;
    private final Map<String, Path> wars = new LinkedHashMap<>();

    @BeforeAll
    void buildWars(@TempDir Path tmp) throws Exception {
        Path app = tmp.resolve("war_app");
        WebApp.copyTree(Path.of("src/test/resources/org/nettyrack/servlet/war_app"), app);
        appWar = tmp.resolve("shop.war");
        Map<String, Process> builds = new LinkedHashMap<>();
        builds.put("app", build(app, appWar, tmp.resolve("app-build.log")));
        for (String example : List.of("sinatra", "rails")) {
            wars.put(example, tmp.resolve(example + ".war"));
            builds.put(example, build(Path.of("examples", example), wars.get(example), tmp.resolve(example + "-build.log")));
        }
        for (Map.Entry<String, Process> build : builds.entrySet()) {
            awaitBuild(build.getValue(), tmp.resolve(build.getKey() + "-build.log"));
        }
    }

    static Stream<Arguments> containers() {
        Supplier<Container> jetty = JettyContainer::new;
        Supplier<Container> tomcat = TomcatContainer::new;
        return Stream.of(Arguments.of("jetty", jetty), Arguments.of("tomcat", tomcat));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("containers")
    void appWarAnswersUnderAContextPath(String name, Supplier<Container> containers) throws Exception {
        try (Container container = containers.get()) {
            assertTrue(container.deploy(appWar, "/shop"), () -> "deployment failed: " + container.failure());
            URI base = container.base();
            HttpResponse<String> root = get(base.resolve("items/1"));
            assertEquals(200, root.statusCode(), root.body());
            assertTrue(root.body().startsWith("hello from the WAR SCRIPT_NAME=/shop PATH_INFO=/items/1 RACK_ENV=production rack="),
                root.body());
            HttpResponse<String> hello = get(base.resolve("hello.txt"));
            assertEquals(200, hello.statusCode());
            assertEquals("static hello from public/\n", hello.body());
            String hidden = get(base.resolve("WEB-INF/config.ru")).body();
            assertTrue(!hidden.contains("bundler/setup"), "WEB-INF/config.ru was served as a file");
            HttpResponse<String> echo = client.send(HttpRequest.newBuilder(base.resolve("echo")).timeout(WAIT)
                .POST(HttpRequest.BodyPublishers.ofString("quiet please")).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals("QUIET PLEASE", echo.body());
            assertEquals("echo: hi", webSocketEcho(URI.create(base.resolve("ws").toString().replaceFirst("^http", "ws")), "hi"));
        }
    }

    /**
     * Redeployed three times in one container, the WAR leaves no thread of its own behind: none
     * alive after an undeploy has the web app's class loader (or one below it, JRuby's) as its
     * context loader, which every thread started while the app booted or served has.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("containers")
    void appWarRedeploysWithoutLeavingThreads(String name, Supplier<Container> containers) throws Exception {
        try (Container container = containers.get()) {
            deployThreeTimes(container,
                round -> assertEquals("echo: hi", webSocketEcho(URI.create(container.base().resolve("ws").toString()
                    .replaceFirst("^http", "ws")), "hi")),
                (round, loader) -> assertEquals(List.of(), threadsOf(loader), "threads of the web app after undeploy " + round));
        }
    }

    /**
     * Redeployed three times in one container, the WAR does not pile up its classes: the class
     * loaders (and JRuby's classes in metaspace with them) of the web apps undeployed before the
     * last one are collected. The last one may stay until the next deployment: something the
     * heap dump does not show (a JDK class's own fields, which it leaves out, such as its
     * ClassValue map, which the JDK clears lazily) still holds it, and a new deployment lets it go.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("containers")
    void appWarRedeploysWithoutKeepingItsClasses(String name, Supplier<Container> containers) throws Exception {
        ReferenceQueue<ClassLoader> collected = new ReferenceQueue<>();
        List<WeakReference<ClassLoader>> undeployed = new ArrayList<>();
        try (Container container = containers.get()) {
            deployThreeTimes(container, round -> { },
                (round, loader) -> undeployed.add(new WeakReference<>(loader, collected)));
            int earlier = undeployed.size() - 1;
            assertTrue(awaitCollected(collected, earlier) >= earlier,
                () -> "web app class loaders still reachable after 3 undeploys: " + undeployed.stream()
                    .limit(earlier).filter(loader -> loader.get() != null).count() + " of the first " + earlier);
        }
    }

    /** A check in one round of {@link #deployThreeTimes}, given the round's web app class loader. */
    @FunctionalInterface
    private interface AfterUndeploy {
        void check(int round, ClassLoader loader) throws Exception;
    }

    /** A check in one round of {@link #deployThreeTimes}, while the web app is deployed. */
    @FunctionalInterface
    private interface WhileDeployed {
        void check(int round) throws Exception;
    }

    /**
     * The app WAR deployed at /shop (redeployed in rounds 2 and 3), answering, then undeployed,
     * three times in one container: {@code whileDeployed} runs before each undeploy,
     * {@code afterUndeploy} after it with the web app's class loader.
     */
    private void deployThreeTimes(Container container, WhileDeployed whileDeployed, AfterUndeploy afterUndeploy)
        throws Exception {
        assertTrue(container.deploy(appWar, "/shop"), () -> "deployment failed: " + container.failure());
        for (int round = 1; round <= 3; round++) {
            if (round > 1) {
                container.redeploy();
            }
            assertEquals(200, get(container.base().resolve("items/" + round)).statusCode());
            whileDeployed.check(round);
            ClassLoader loader = container.loader();
            container.undeploy();
            afterUndeploy.check(round, loader);
        }
    }

    /**
     * How many of the references were cleared, waiting for them (a minute at most, which a
     * loaded machine needs) with a full GC before each wait.
     */
    private static int awaitCollected(ReferenceQueue<ClassLoader> queue, int expected) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        int cleared = 0;
        while (cleared < expected && System.nanoTime() < deadline) {
            System.gc();
            while (queue.remove(500) != null) {
                cleared++;
            }
        }
        return cleared;
    }

    /** The names of the live threads whose context class loader is the web app's, or below it. */
    private static List<String> threadsOf(ClassLoader webApp) {
        return Thread.getAllStackTraces().keySet().stream()
            .filter(thread -> thread.isAlive() && loadedBy(thread.getContextClassLoader(), webApp))
            .map(Thread::getName).toList();
    }

    private static boolean loadedBy(ClassLoader context, ClassLoader webApp) {
        for (ClassLoader loader = context; loader != null; loader = loader.getParent()) {
            if (loader == webApp) {
                return true;
            }
        }
        return false;
    }

    static Stream<Arguments> examples() {
        return containers().flatMap(container -> Stream.of("sinatra", "rails")
            .map(example -> Arguments.of(container.get()[0], container.get()[1], example)));
    }

    @ParameterizedTest(name = "{2} in {0}")
    @MethodSource("examples")
    void exampleWarAnswers(String name, Supplier<Container> containers, String example) throws Exception {
        try (Container container = containers.get()) {
            assertTrue(container.deploy(wars.get(example), "/shop"), () -> "deployment failed: " + container.failure());
            URI base = container.base();
            HttpResponse<String> root = get(base);
            assertEquals(200, root.statusCode(), root.body());
            String greeting = example.equals("sinatra") ? "(?s)sinatra 3\\.\\d+\\.\\d+ on jruby .*" : "(?s)hello from Rails 6\\.1.*";
            assertTrue(root.body().matches(greeting), root.body());
            String json = get(base.resolve("json/21")).body();
            assertTrue(json.startsWith("{\"n\":42"), json);
            if (example.equals("sinatra")) {
                HttpResponse<String> echo = client.send(HttpRequest.newBuilder(base.resolve("echo")).timeout(WAIT)
                    .POST(HttpRequest.BodyPublishers.ofString("quiet please")).build(), HttpResponse.BodyHandlers.ofString());
                assertEquals("QUIET PLEASE", echo.body());
            }
        }
    }

    private HttpResponse<String> get(URI uri) throws IOException, InterruptedException {
        return client.send(HttpRequest.newBuilder(uri).timeout(WAIT).build(), HttpResponse.BodyHandlers.ofString());
    }

    private String webSocketEcho(URI uri, String message) throws Exception {
        CompletableFuture<String> reply = new CompletableFuture<>();
        WebSocket socket = client.newWebSocketBuilder().buildAsync(uri, new WebSocket.Listener() {
            private final StringBuilder text = new StringBuilder();

            @Override
            public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
                text.append(data);
                if (last) {
                    reply.complete(text.toString());
                }
                webSocket.request(1);
                return null;
            }

            @Override
            public void onError(WebSocket webSocket, Throwable error) {
                reply.completeExceptionally(error);
            }
        }).get(WAIT.toSeconds(), TimeUnit.SECONDS);
        socket.sendText(message, true).get(WAIT.toSeconds(), TimeUnit.SECONDS);
        String answer = reply.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        socket.sendClose(WebSocket.NORMAL_CLOSURE, "").get(WAIT.toSeconds(), TimeUnit.SECONDS);
        return answer;
    }

    /** `jruby bin/nettyrack war APP -o WAR` outside Bundler's environment, as a person runs it. */
    private static Process build(Path app, Path war, Path log) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(WebApp.jrubyHome().resolve("bin/jruby").toString(),
            "bin/nettyrack", "war", app.toString(), "-o", war.toString())
            .redirectErrorStream(true).redirectOutput(log.toFile());
        Map<String, String> env = builder.environment();
        for (String name : List.of("RUBYOPT", "RUBYLIB", "BUNDLE_GEMFILE", "BUNDLE_BIN_PATH", "BUNDLER_SETUP", "BUNDLER_VERSION")) {
            env.remove(name);
        }
        env.put("JRUBY_OPTS", "--dev");
        return builder.start();
    }

    private static void awaitBuild(Process build, Path log) throws Exception {
        boolean done = build.waitFor(BUILD_SECONDS, TimeUnit.SECONDS);
        if (!done) {
            build.destroyForcibly();
        }
        String output = Files.readString(log);
        assertTrue(done && build.exitValue() == 0, () -> "nettyrack war failed: " + output);
    }
}
