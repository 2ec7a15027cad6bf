package org.nettyrack.otel;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.context.propagation.TextMapPropagator;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.nettyrack.core.RackRequest;
import org.nettyrack.core.RequestTimes;
import org.nettyrack.core.ops.ExchangeTracer;

/**
 * One SERVER span per finished exchange, made whole when it ends: it starts at the request
 * head's arrival ({@link RequestTimes#arrivedMicros}) and ends at the last byte (the arrival
 * plus {@link RequestTimes#totalNanos}, on the monotonic clock), named {@code METHOD route}
 * when the application named its route ({@link RequestTimes#route}), else {@code METHOD}; its
 * parent is the request's {@code traceparent}, and a malformed one makes a root span. The
 * attributes are {@link ServerSpanAttributes}'; a 5xx sets the status ERROR (OpenTelemetry's
 * HTTP conventions leave a server's 4xx unset).
 */
final class ServerSpans implements ExchangeTracer {
    private final Tracer tracer;
    private final TextMapPropagator propagator;

    ServerSpans(Tracer tracer, TextMapPropagator propagator) {
        this.tracer = tracer;
        this.propagator = propagator;
    }

    @Override
    public void finished(RackRequest request, int status, long bytes, long endNanos) {
        RequestTimes times = request.times();
        long start = TimeUnit.MICROSECONDS.toNanos(times.arrivedMicros());
        String route = times.route();
        SpanBuilder builder = tracer.spanBuilder(name(request.method(), route))
            .setParent(propagator.extract(Context.root(), request, Headers.INSTANCE))
            .setSpanKind(SpanKind.SERVER)
            .setStartTimestamp(start, TimeUnit.NANOSECONDS);
        ServerSpanAttributes.set(builder, request, route, status, bytes);
        Span span = builder.startSpan();
        if (status >= 500) {
            span.setStatus(StatusCode.ERROR);
        }
        span.end(start + times.totalNanos(endNanos), TimeUnit.NANOSECONDS);
    }

    /** {@code METHOD route}, or {@code METHOD}; {@code HTTP} for a method outside the known set. */
    static String name(String method, String route) {
        String known = ServerSpanAttributes.knownMethod(method) ? method : "HTTP";
        return route == null || route.isEmpty() ? known : known + " " + route;
    }

    /** The request's header fields, as a propagator reads them. */
    enum Headers implements TextMapGetter<RackRequest> {
        INSTANCE;

        @Override
        public Iterable<String> keys(RackRequest request) {
            List<String> names = new ArrayList<>();
            request.forEachHeader((name, value) -> names.add(name.toString()));
            return names;
        }

        @Override
        public String get(RackRequest request, String key) {
            return request == null ? null : request.header(key);
        }
    }
}
