package org.nettyrack.servlet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * rack.upgrade to server-sent events: the app's 101 made a 200 event stream, events and keep-alive
 * comments until the client goes (then on_close runs), a client that does not read cut off at
 * max-push-queue, and 406 for a request that does not accept an event stream.
 */
abstract non-sealed class DoorSseContract extends DoorConcern {
    DoorSseContract(ServletDoorContract door) {
        super(door);
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
}
