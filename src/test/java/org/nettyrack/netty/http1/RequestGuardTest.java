package org.nettyrack.netty.http1;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.nettyrack.core.config.ServerConfig;
import org.nettyrack.netty.EchoHandler;
import org.nettyrack.netty.PipelineHarness;

/** Malformed and over-limit requests never reach the application, and close the connection. */
class RequestGuardTest {
    private static String head(String lines) {
        return lines.replace("|", "\r\n") + "\r\n\r\n";
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = ';', value = {
        "CL and TE together;      POST / HTTP/1.1|Host: a|Content-Length: 3|Transfer-Encoding: chunked; 400",
        "duplicate CL;            POST / HTTP/1.1|Host: a|Content-Length: 3|Content-Length: 3; 400",
        "differing CL;            POST / HTTP/1.1|Host: a|Content-Length: 3|Content-Length: 4; 400",
        "CL not a number;         POST / HTTP/1.1|Host: a|Content-Length: abc; 400",
        "negative CL;             POST / HTTP/1.1|Host: a|Content-Length: -1; 400",
        "TE other than chunked;   POST / HTTP/1.1|Host: a|Transfer-Encoding: gzip; 400",
        "TE chunked twice;        POST / HTTP/1.1|Host: a|Transfer-Encoding: chunked|Transfer-Encoding: chunked; 400",
        "TE chunked twice in one; POST / HTTP/1.1|Host: a|Transfer-Encoding: chunked, chunked; 400",
        "TE chunked not last;     POST / HTTP/1.1|Host: a|Transfer-Encoding: chunked, gzip; 400",
        "TE empty;                POST / HTTP/1.1|Host: a|Transfer-Encoding: ,; 400",
        "TE gzip before chunked;  POST / HTTP/1.1|Host: a|Transfer-Encoding: gzip, chunked; 501",
        "TE split over fields;    POST / HTTP/1.1|Host: a|Transfer-Encoding: gzip|Transfer-Encoding: chunked; 501",
        "HTTP/9.9;                GET / HTTP/9.9|Host: a; 505",
        "HTTP/1.2;                GET / HTTP/1.2|Host: a; 505",
        "HTTP/2.0 without Host;   GET / HTTP/2.0; 505",
        "HTTP/0.9;                GET / HTTP/0.9|Host: a; 505",
        "not HTTP;                GET / FOO/1.1|Host: a; 400",
        "asterisk form with GET;  GET * HTTP/1.1|Host: a; 400",
        "absolute form, no host;  GET http:// HTTP/1.1|Host: a; 400",
        "absolute form, no host 2; GET https:///x HTTP/1.1|Host: a; 400",
        "two Hosts on HTTP/1.0;   GET / HTTP/1.0|Host: a|Host: b; 400",
        "Host with a space;       GET / HTTP/1.1|Host: a b; 400",
        "Host with userinfo;      GET / HTTP/1.1|Host: u@h; 400",
        "Host with a path;        GET / HTTP/1.1|Host: h/x; 400",
        "Host port not digits;    GET / HTTP/1.1|Host: h:abc; 400",
        "Host port alone;         GET / HTTP/1.1|Host: :80; 400",
        "Host IPv6 unbracketed;   GET / HTTP/1.1|Host: ::1; 400",
        "two CLs on HTTP/1.0;     POST / HTTP/1.0|Content-Length: 5|Content-Length: 3; 400",
        "HTTP/1.1 without Host;   GET / HTTP/1.1|Accept: */*; 400",
        "two Host headers;        GET / HTTP/1.1|Host: a|Host: b; 400",
        "garbage request line;    GARBAGE; 400",
        "bad target;              GET nothing HTTP/1.1|Host: a; 400",
        "space in header name;    GET / HTTP/1.1|Host: a|Bad Name: x; 400",
        "body over the limit;     POST / HTTP/1.1|Host: a|Content-Length: 2000; 413",
        "expect over the limit;   POST / HTTP/1.1|Host: a|Content-Length: 2000|Expect: 100-continue; 413",
    })
    void refuses(String name, String request, int status) {
        EchoHandler app = new EchoHandler();
        PipelineHarness h = new PipelineHarness(ServerConfig.builder().maxBodySize(1000).build(), app, task -> {
            task.run();
            return true;
        });
        String response = h.exchange(head(request.trim()));
        assertTrue(PipelineHarness.statusLine(response).startsWith("HTTP/1.1 " + status), response);
        assertTrue(app.seen.isEmpty(), "the app must not see it");
        assertFalse(h.channel.isOpen(), "connection closed");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = ';', value = {
        "URI over the limit;      128; 1000; 100; 414",
        "header block too large;  100000; 300; 100; 431",
        "too many headers;        100000; 100000; 3; 431",
    })
    void enforcesHeadLimits(String name, int maxUri, int maxHeaderSize, int maxHeaders, int status) {
        ServerConfig config = ServerConfig.builder().maxUriLength(maxUri).maxHeaderSize(maxHeaderSize)
            .maxHeaders(maxHeaders).build();
        PipelineHarness h = new PipelineHarness(config, new EchoHandler(), task -> {
            task.run();
            return true;
        });
        String request = "GET /" + "a".repeat(200) + " HTTP/1.1\r\nHost: a\r\n"
            + "X-A: 1\r\nX-B: 2\r\nX-C: 3\r\nX-D: " + "d".repeat(400) + "\r\n\r\n";
        assertEquals("HTTP/1.1 " + status, PipelineHarness.statusLine(h.exchange(request)).substring(0, 12));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = ';', value = {
        "HTTP/1.0 without Host;   GET / HTTP/1.0",
        "absolute form;           GET http://example.com/x HTTP/1.1|Host: example.com",
        "asterisk form;           OPTIONS * HTTP/1.1|Host: a",
    })
    void accepts(String name, String request) {
        EchoHandler app = new EchoHandler();
        String response = new PipelineHarness(app).exchange(head(request.trim()));
        assertEquals("HTTP/1.1 200 OK", PipelineHarness.statusLine(response));
        assertEquals(1, app.seen.size());
    }
}
