package org.nettyrack.core.ops;

import org.nettyrack.core.ErrorLog;

/**
 * Chooses a door's {@link ExchangeTracer} once, at startup: OpenTelemetry's
 * ({@code org.nettyrack.otel}) when traces are wanted ({@code --otel auto}, the default) and the
 * OpenTelemetry API is on the class path, else {@link ExchangeTracer#NONE}. The API is looked for
 * by name without initializing it, so a server without it loads no OpenTelemetry class and pays
 * nothing per request; a tracer that fails to start is reported and replaced by NONE.
 */
public final class ExchangeTracers {
    /** The class whose presence means the OpenTelemetry API is on the class path. */
    static final String OTEL_API = "io.opentelemetry.api.GlobalOpenTelemetry";
    static final String OTEL_SOURCE = "org.nettyrack.otel.OtelTracing";

    private ExchangeTracers() {
    }

    /** wanted: the {@code --otel} setting is {@code auto}. */
    public static ExchangeTracer choose(boolean wanted, ErrorLog errors) {
        ClassLoader loader = ExchangeTracers.class.getClassLoader();
        return choose(wanted, OTEL_API, OTEL_SOURCE, loader, errors);
    }

    static ExchangeTracer choose(boolean wanted, String api, String source, ClassLoader loader, ErrorLog errors) {
        if (!wanted || !present(api, loader)) {
            return ExchangeTracer.NONE;
        }
        try {
            Class<? extends ExchangeTracer.Source> type =
                Class.forName(source, true, loader).asSubclass(ExchangeTracer.Source.class);
            return type.getDeclaredConstructor().newInstance().open(errors);
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            errors.report("traces off: OpenTelemetry did not start", e);
            return ExchangeTracer.NONE;
        }
    }

    /** Whether the class is on the loader's class path; nothing of it is initialized. */
    static boolean present(String className, ClassLoader loader) {
        try {
            Class.forName(className, false, loader);
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}
