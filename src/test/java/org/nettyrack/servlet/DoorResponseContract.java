package org.nettyrack.servlet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A Rack response through the servlet response: one Date header, a to_path body sent whole, HEAD
 * with the length and no body, a streamed body flushed as it yields, and a body that fails: a 500
 * before its first byte, a cut response after it.
 */
abstract non-sealed class DoorResponseContract extends DoorConcern {
    DoorResponseContract(ServletDoorContract door) {
        super(door);
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

    /** The request's id: the one it sent when sane, else a made one, on the app's answers (HEAD included). */
    @Test
    void everyAnswerOfTheAppCarriesTheRequestId() throws Exception {
        assertEquals(List.of("proxy-7"),
            send(HttpRequest.newBuilder(url("hello")).header("x-request-id", "proxy-7")).headers().allValues("x-request-id"));
        List<String> made = send(HttpRequest.newBuilder(url("hello"))).headers().allValues("x-request-id");
        assertTrue(made.size() == 1 && made.get(0).matches("[0-9a-f]{32}"), made::toString);
        List<String> head = send(HttpRequest.newBuilder(url("file")).method("HEAD", HttpRequest.BodyPublishers.noBody()))
            .headers().allValues("x-request-id");
        assertTrue(head.size() == 1 && head.get(0).matches("[0-9a-f]{32}"), head::toString);
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
}
