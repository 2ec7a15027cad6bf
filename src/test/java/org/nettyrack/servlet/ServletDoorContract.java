package org.nettyrack.servlet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The servlet door in a real container, over real HTTP: the web app of {@link WebApp} with
 * door.ru, deployed at /app, answering java.net.http.HttpClient. Subclasses name the container
 * and nest one class per concern of the door, each of the classes {@link DoorConcern} permits
 * (env, request body, response, static files, WebSocket, pub/sub, SSE, lifecycle), as
 * {@link #nestsEveryConcern} checks. So every concern runs in every container, against the one
 * deployment made here per container, and is reported under the container's test
 * (JettyDoorTest$Env...). The timeout below holds for the nested tests too.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 120, unit = TimeUnit.SECONDS)
abstract class ServletDoorContract {
    final HttpClient client = HttpClient.newBuilder().connectTimeout(DoorConcern.WAIT).build();
    private Container container;
    private Path marker;

    abstract Container newContainer();

    /** Each concern nested once in this container's test: none left out of one container. */
    @BeforeAll
    void nestsEveryConcern() {
        Set<String> nested = Arrays.stream(getClass().getDeclaredClasses()).filter(type -> type.isAnnotationPresent(Nested.class))
            .map(type -> type.getSuperclass().getSimpleName()).collect(Collectors.toCollection(TreeSet::new));
        Set<String> concerns = Arrays.stream(DoorConcern.class.getPermittedSubclasses()).map(Class::getSimpleName)
            .collect(Collectors.toCollection(TreeSet::new));
        assertEquals(concerns, nested, () -> getClass().getSimpleName() + " must nest one class per concern of the door");
    }

    @BeforeAll
    void deploy(@TempDir Path tmp) throws Exception {
        marker = tmp.resolve("marker");
        Path root = new WebApp(tmp.resolve("webapp"))
            .rackup(DoorConcern.fixture("door.ru"))
            .file("hello.txt", "static hello\n")
            .param("test.marker", marker.toString())
            .param("body-buffer", "1k")
            .param("max-body-size", "64k")
            .param("max-discard-size", "256k")
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

    /** http://127.0.0.1:PORT/app/, door.ru's web app. */
    URI base() {
        return container.base();
    }
}
