package org.nettyrack.servlet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/**
 * rack.input from a request body: read whole, spooled past body-buffer (1k in door.ru's web
 * app), refused with 413 past max-body-size (64k).
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
}
