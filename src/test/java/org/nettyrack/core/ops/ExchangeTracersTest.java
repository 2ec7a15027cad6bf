package org.nettyrack.core.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.nettyrack.core.ErrorLog;

class ExchangeTracersTest {
    private final ByteArrayOutputStream logged = new ByteArrayOutputStream();
    private final ErrorLog errors = new ErrorLog(logged);
    private final ClassLoader ours = ExchangeTracersTest.class.getClassLoader();

    /** What a tracing library's adapter is, for the factory to make. */
    public static final class Recording implements ExchangeTracer.Source {
        static final ExchangeTracer TRACER = (request, status, bytes, endNanos) -> { };

        @Override
        public ExchangeTracer open(ErrorLog log) {
            return TRACER;
        }
    }

    /** An adapter whose library fails to start. */
    public static final class Failing implements ExchangeTracer.Source {
        @Override
        public ExchangeTracer open(ErrorLog log) {
            throw new IllegalStateException("no exporter");
        }
    }

    @Test
    void withoutTheApiNothingIsTraced() {
        // the platform loader sees the JDK alone: no OpenTelemetry API, and no nettyrack either
        assertFalse(ExchangeTracers.present(ExchangeTracers.OTEL_API, ClassLoader.getPlatformClassLoader()));
        assertSame(ExchangeTracer.NONE, ExchangeTracers.choose(true, ExchangeTracers.OTEL_API,
            Recording.class.getName(), ClassLoader.getPlatformClassLoader(), errors));
        assertSame(ExchangeTracer.NONE, ExchangeTracers.choose(true, "io.opentelemetry.api.NoSuchClass",
            Recording.class.getName(), ours, errors));
        assertEquals("", logged.toString(StandardCharsets.UTF_8));
    }

    @Test
    void withTheApiTheAdapterTraces() {
        assertSame(Recording.TRACER, ExchangeTracers.choose(true, String.class.getName(), Recording.class.getName(), ours, errors));
    }

    @Test
    void offMeansNoneEvenWithTheApi() {
        assertSame(ExchangeTracer.NONE, ExchangeTracers.choose(false, String.class.getName(), Recording.class.getName(), ours, errors));
    }

    @Test
    void anAdapterThatFailsIsReportedAndNothingIsTraced() {
        assertSame(ExchangeTracer.NONE, ExchangeTracers.choose(true, String.class.getName(), Failing.class.getName(), ours, errors));
        assertTrue(logged.toString(StandardCharsets.UTF_8).contains("traces off: OpenTelemetry did not start"));
    }

    @Test
    void theApiWithoutAConfiguredSdkTracesNothing() {
        // the test class path has the API and the SDK, but neither a global OpenTelemetry nor autoconfigure
        assertTrue(ExchangeTracers.present(ExchangeTracers.OTEL_API, ours));
        assertSame(ExchangeTracer.NONE, ExchangeTracers.choose(true, errors));
    }
}
