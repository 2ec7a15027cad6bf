package org.nettyrack.otel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.nettyrack.core.FakeRequest;
import org.nettyrack.core.RackRequest;
import org.nettyrack.core.ops.ExchangeTracer;

class ServerSpansTest {
    private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String PARENT_ID = "00f067aa0ba902b7";

    private final InMemorySpanExporter exported = InMemorySpanExporter.create();
    private final SdkTracerProvider provider =
        SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(exported)).build();
    private final ExchangeTracer tracer = OtelTracing.of(OpenTelemetrySdk.builder().setTracerProvider(provider).build());

    @AfterEach
    void close() {
        provider.close();
    }

    private SpanData finish(RackRequest request, int status, long bytes) {
        tracer.finished(request, status, bytes, request.times().arrivedNanos() + 1_234_567);
        List<SpanData> spans = exported.getFinishedSpanItems();
        assertEquals(1, spans.size());
        return spans.get(0);
    }

    @Test
    void aServerSpanWithTheHttpAttributes() {
        FakeRequest request = new FakeRequest("GET", "/users/7?tab=posts", "HTTP/1.1")
            .header("Host", "example.com:8080").header("User-Agent", "curl/8.5");
        request.times().route("/users/:id");
        SpanData span = finish(request, 200, 42);
        assertEquals("GET /users/:id", span.getName());
        assertEquals(SpanKind.SERVER, span.getKind());
        assertEquals(StatusCode.UNSET, span.getStatus().getStatusCode());
        Attributes a = span.getAttributes();
        assertEquals("GET", a.get(ServerSpanAttributes.METHOD));
        assertEquals("/users/7", a.get(ServerSpanAttributes.PATH));
        assertEquals("tab=posts", a.get(ServerSpanAttributes.QUERY));
        assertEquals("http", a.get(ServerSpanAttributes.SCHEME));
        assertEquals("/users/:id", a.get(ServerSpanAttributes.ROUTE));
        assertEquals(200L, a.get(ServerSpanAttributes.STATUS));
        assertEquals(42L, a.get(ServerSpanAttributes.BODY_SIZE));
        assertEquals("1.1", a.get(ServerSpanAttributes.PROTOCOL_VERSION));
        assertEquals("example.com", a.get(ServerSpanAttributes.SERVER_ADDRESS));
        assertEquals(8080L, a.get(ServerSpanAttributes.SERVER_PORT));
        assertEquals("127.0.0.1", a.get(ServerSpanAttributes.CLIENT_ADDRESS));
        assertEquals("curl/8.5", a.get(ServerSpanAttributes.USER_AGENT));
    }

    @Test
    void withoutARouteTheMethodAloneNamesIt() {
        SpanData span = finish(new FakeRequest("POST", "/form", "HTTP/2.0"), 201, 0);
        assertEquals("POST", span.getName());
        assertNull(span.getAttributes().get(ServerSpanAttributes.ROUTE));
        assertNull(span.getAttributes().get(ServerSpanAttributes.QUERY));
        assertEquals("2", span.getAttributes().get(ServerSpanAttributes.PROTOCOL_VERSION));
        // no Host: the socket's address
        assertEquals("127.0.0.1", span.getAttributes().get(ServerSpanAttributes.SERVER_ADDRESS));
        assertEquals(9292L, span.getAttributes().get(ServerSpanAttributes.SERVER_PORT));
    }

    @Test
    void anUnknownMethodIsOther() {
        SpanData span = finish(new FakeRequest("PURGE", "http://cache.local/x", "HTTP/1.1"), 200, 0);
        assertEquals("HTTP", span.getName());
        assertEquals("_OTHER", span.getAttributes().get(ServerSpanAttributes.METHOD));
        assertEquals("PURGE", span.getAttributes().get(ServerSpanAttributes.METHOD_ORIGINAL));
        assertEquals("/x", span.getAttributes().get(ServerSpanAttributes.PATH));
    }

    @Test
    void theParentIsTheRequestsTraceparent() {
        FakeRequest request = new FakeRequest("GET", "/", "HTTP/1.1")
            .header("traceparent", "00-" + TRACE_ID + "-" + PARENT_ID + "-01").header("tracestate", "vendor=1");
        SpanData span = finish(request, 200, 0);
        assertEquals(TRACE_ID, span.getTraceId());
        assertEquals(PARENT_ID, span.getParentSpanId());
        assertTrue(span.getParentSpanContext().isRemote());
        assertEquals("1", span.getSpanContext().getTraceState().get("vendor"));
    }

    @Test
    void aMalformedTraceparentMakesARootSpan() {
        FakeRequest request = new FakeRequest("GET", "/", "HTTP/1.1").header("traceparent", "00-nothex-" + PARENT_ID + "-01");
        SpanData span = finish(request, 200, 0);
        assertFalse(span.getParentSpanContext().isValid());
        assertTrue(span.getSpanContext().isValid());
    }

    @Test
    void aServerErrorIsAnError() {
        assertEquals(StatusCode.ERROR, finish(new FakeRequest("GET", "/", "HTTP/1.1"), 503, 0).getStatus().getStatusCode());
    }

    @Test
    void aClientErrorLeavesTheStatusUnset() {
        assertEquals(StatusCode.UNSET, finish(new FakeRequest("GET", "/", "HTTP/1.1"), 404, 0).getStatus().getStatusCode());
    }

    @Test
    void itRunsFromTheHeadsArrivalToTheLastByte() {
        FakeRequest request = new FakeRequest("GET", "/", "HTTP/1.1");
        SpanData span = finish(request, 200, 0);
        long start = request.times().arrivedMicros() * 1_000;
        assertEquals(start, span.getStartEpochNanos());
        assertEquals(start + 1_234_567, span.getEndEpochNanos());
    }

    @Test
    void protocolVersions() {
        assertEquals("1.0", ServerSpanAttributes.protocolVersion("HTTP/1.0"));
        assertEquals("1.1", ServerSpanAttributes.protocolVersion("HTTP/1.1"));
        assertEquals("2", ServerSpanAttributes.protocolVersion("HTTP/2.0"));
        assertEquals("2", ServerSpanAttributes.protocolVersion("HTTP/2"));
    }
}
