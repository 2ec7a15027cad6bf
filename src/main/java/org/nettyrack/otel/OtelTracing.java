package org.nettyrack.otel;

import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.TracerBuilder;
import io.opentelemetry.api.trace.TracerProvider;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import org.nettyrack.core.ErrorLog;
import org.nettyrack.core.ops.ExchangeTracer;

/**
 * The way in to OpenTelemetry, made by name by {@code core.ops.ExchangeTracers} once the API was
 * found on the class path: the OpenTelemetry the application (or an agent) registered as the
 * global one; else, when the SDK's autoconfigure module is on the class path too, the SDK it
 * builds from the {@code OTEL_*} environment variables and system properties (then registered
 * as the global one, and flushed by its own shutdown hook); else none, and no spans. Parents come
 * from the request's W3C {@code traceparent}/{@code tracestate}, whatever propagators the SDK
 * was given for its own clients.
 */
public final class OtelTracing implements ExchangeTracer.Source {
    static final String AUTOCONFIGURE = "io.opentelemetry.sdk.autoconfigure.AutoConfiguredOpenTelemetrySdk";
    /** The instrumentation scope of nettyrack's spans. */
    static final String SCOPE = "org.nettyrack";

    @Override
    public ExchangeTracer open(ErrorLog errors) {
        OpenTelemetry configured = configured();
        if (configured == null || configured.getTracerProvider() == TracerProvider.noop()) {
            return ExchangeTracer.NONE;
        }
        return of(configured);
    }

    /** The tracer over an OpenTelemetry (a test's SDK with an in-memory exporter). */
    public static ExchangeTracer of(OpenTelemetry openTelemetry) {
        TracerBuilder tracer = openTelemetry.tracerBuilder(SCOPE);
        String version = OtelTracing.class.getPackage().getImplementationVersion(); // the jar's manifest
        if (version != null) {
            tracer.setInstrumentationVersion(version);
        }
        return new ServerSpans(tracer.build(), W3CTraceContextPropagator.getInstance());
    }

    /** The global OpenTelemetry, else the autoconfigured SDK, else null. */
    private static OpenTelemetry configured() {
        if (GlobalOpenTelemetry.isSet()) {
            return GlobalOpenTelemetry.get();
        }
        Class<?> autoconfigure;
        try {
            autoconfigure = Class.forName(AUTOCONFIGURE, true, OtelTracing.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            return null;
        }
        try {
            Object sdk = autoconfigure.getMethod("initialize").invoke(null);
            return (OpenTelemetry) autoconfigure.getMethod("getOpenTelemetrySdk").invoke(sdk);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("OpenTelemetry's autoconfigure failed", e.getCause() != null ? e.getCause() : e);
        }
    }
}
