package org.nettyrack.servlet;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * What a concern of {@link ServletDoorContract} asks the door with: the URLs of door.ru's web app,
 * deployed once by the contract; the contract's one HTTP client; and a new container of the same
 * kind, for a test that deploys a web app of its own. A concern's class is nested in each
 * container's test (JettyDoorTest, TomcatDoorTest, Tomcat101DoorTest), an instance per test;
 * the list below is the one {@link ServletDoorContract} holds each container's test to.
 */
abstract sealed class DoorConcern permits DoorEnvContract, DoorRequestBodyContract, DoorResponseContract,
    DoorStaticFilesContract, DoorWebSocketContract, DoorPubSubContract, DoorSseContract, DoorLifecycleContract {
    static final Duration WAIT = Duration.ofSeconds(30);

    final HttpClient client;
    private final ServletDoorContract door;

    DoorConcern(ServletDoorContract door) {
        this.door = door;
        this.client = door.client;
    }

    Container newContainer() {
        return door.newContainer();
    }

    URI ws(String path) {
        return URI.create(url(path).toString().replaceFirst("^http", "ws"));
    }

    HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
        return client.send(request.timeout(WAIT).build(), HttpResponse.BodyHandlers.ofString());
    }

    URI url(String path) {
        return door.base().resolve(path);
    }

    static String readLine(BufferedReader reader) {
        try {
            return reader.readLine();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    static String fixture(String name) throws IOException {
        try (InputStream in = DoorConcern.class.getResourceAsStream(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
