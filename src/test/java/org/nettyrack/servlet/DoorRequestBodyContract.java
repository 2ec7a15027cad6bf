package org.nettyrack.servlet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * rack.input from a request body: read whole, spooled past body-buffer (1k in door.ru's web
 * app), refused with 413 past max-body-size (64k), an answer the client reads even while it is
 * still sending the body (the door reads and drops up to max-discard-size, 256k here, first).
 */
abstract non-sealed class DoorRequestBodyContract extends DoorConcern {
    DoorRequestBodyContract(ServletDoorContract door) {
        super(door);
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

    /**
     * The door answers 413 before it has read the body (at once for a Content-Length over the
     * limit, past the limit for a chunked one). Closed with the rest unread, the connection was
     * reset under the client, which then lost the answer ("received no bytes", broken pipe) in
     * one run out of a few: so many rounds, bodies just over the limit and well over it, with a
     * Content-Length and chunked.
     */
    @Test
    void a413ReachesAClientStillSendingItsBody() throws Exception {
        List<byte[]> bodies = List.of(new byte[64 * 1024 + 1], new byte[200 * 1024]);
        for (int round = 0; round < 50; round++) {
            for (byte[] body : bodies) {
                assertRefused(HttpRequest.BodyPublishers.ofByteArray(body), round, body.length + " bytes, Content-Length");
                assertRefused(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(body)), round,
                    body.length + " bytes, chunked");
            }
        }
    }

    /** A body longer than max-discard-size is not read: the connection closes, answered or not, but never hangs. */
    @Test
    void aBodyBeyondTheDiscardBoundEndsTheConnection() throws Exception {
        HttpRequest request = HttpRequest.newBuilder(url("echo")).version(HttpClient.Version.HTTP_1_1).timeout(WAIT)
            .POST(HttpRequest.BodyPublishers.ofByteArray(new byte[4 * 1024 * 1024])).build();
        try {
            assertEquals(413, client.send(request, HttpResponse.BodyHandlers.ofString()).statusCode());
        } catch (IOException reset) {
            assertTrue(!(reset instanceof java.net.http.HttpTimeoutException), () -> "the door did not close: " + reset);
        }
    }

    private void assertRefused(HttpRequest.BodyPublisher body, int round, String what) throws Exception {
        HttpResponse<String> response;
        try {
            response = send(HttpRequest.newBuilder(url("echo")).version(HttpClient.Version.HTTP_1_1).POST(body));
        } catch (IOException e) {
            throw new AssertionError("round " + round + ", " + what + ": no answer: " + e, e);
        }
        assertEquals(413, response.statusCode(), () -> "round " + round + ", " + what);
        assertEquals("413 Request Entity Too Large\n", response.body());
    }
}
