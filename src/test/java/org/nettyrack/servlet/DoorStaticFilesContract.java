package org.nettyrack.servlet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/**
 * What the door's filter leaves to the container: the web app's static files, served by the
 * container's default servlet and not the Rack app; never anything under WEB-INF.
 */
abstract non-sealed class DoorStaticFilesContract extends DoorConcern {
    DoorStaticFilesContract(ServletDoorContract door) {
        super(door);
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
}
