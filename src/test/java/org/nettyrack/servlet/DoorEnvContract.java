package org.nettyrack.servlet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/**
 * The Rack env the servlet door builds from a servlet request: SCRIPT_NAME from the context path,
 * PATH_INFO, the query string, headers as HTTP_*, as Rack::Lint accepts it, with the servlet
 * objects in it; and where the app is called: on the door's workers, the request async meanwhile.
 */
abstract non-sealed class DoorEnvContract extends DoorConcern {
    DoorEnvContract(ServletDoorContract door) {
        super(door);
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

    @Test
    void contextRootItself() throws Exception {
        String body = send(HttpRequest.newBuilder(url(""))).body();
        assertTrue(body.contains("SCRIPT_NAME=/app\nPATH_INFO=/\n"), body);
    }

    @Test
    void rackLintAcceptsTheEnv() throws Exception {
        assertEquals("lint ok 0\n", send(HttpRequest.newBuilder(url("lint"))).body());
        assertEquals("lint ok 5\n", send(HttpRequest.newBuilder(url("lint")).POST(HttpRequest.BodyPublishers.ofString("hello"))).body());
    }

    @Test
    void servletObjectsAreInTheEnv() throws Exception {
        assertEquals("GET /app/servlet true /app\n", send(HttpRequest.newBuilder(url("servlet"))).body());
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
}
