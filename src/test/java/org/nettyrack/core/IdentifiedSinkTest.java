package org.nettyrack.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The heads of an application's run carry the request's id, unless the application gave its own. */
class IdentifiedSinkTest {
    private final List<String> ids = new ArrayList<>();
    private final ResponseSink transport = new ResponseSink() {
        public void respond(int status, ResponseHeaders headers, byte[] body, int offset, int length) { ids.add(headers.get("x-request-id")); }
        public void begin(int status, ResponseHeaders headers, long contentLength) { ids.add(headers.get("x-request-id")); }
        public void write(byte[] bytes, int offset, int length) { }
        public void sendFile(java.nio.file.Path file, long offset, long length) { }
        public void earlyHints(ResponseHeaders headers) { ids.add(headers.get("x-request-id")); }
        public void end() { }
        public void abort() { }
        public void upgrade(int status, ResponseHeaders headers, PushEndpoint endpoint) { ids.add(headers.get("x-request-id")); }
        public Hijack hijack(int status, ResponseHeaders headers) { ids.add(headers == null ? "full" : headers.get("x-request-id")); return null; }
        public boolean committed() { return false; }
        public boolean finished() { return false; }
    };
    private final ResponseSink sink = new IdentifiedSink(transport, "req-1");

    @Test
    void addsTheIdToEveryHead() throws Exception {
        sink.respond(200, new ResponseHeaders(), new byte[0], 0, 0);
        sink.begin(200, new ResponseHeaders(), -1);
        sink.upgrade(101, new ResponseHeaders(), null);
        sink.hijack(200, new ResponseHeaders());
        assertEquals(List.of("req-1", "req-1", "req-1", "req-1"), ids);
    }

    @Test
    void keepsTheApplicationsOwn() {
        ResponseHeaders own = new ResponseHeaders();
        own.add("X-Request-Id", "app-7");
        sink.respond(200, own, new byte[0], 0, 0);
        assertEquals(List.of("app-7"), ids);
        assertEquals(1, own.size());
    }

    @Test
    void leavesEarlyHintsAndAFullHijackAlone() throws Exception {
        sink.earlyHints(new ResponseHeaders());
        sink.hijack(0, null);
        assertNull(ids.get(0));
        assertEquals("full", ids.get(1));
    }
}
