package org.nettyrack.core.config;

import java.io.OutputStream;
import org.nettyrack.core.AccessLogFormat;
import org.nettyrack.core.ErrorLog;

/**
 * Where the server writes: the access log (a line per request, in a format), the error
 * log (trouble outside the application) and traces. Read when a door starts and makes its
 * {@link org.nettyrack.core.AccessLog} and its {@link org.nettyrack.core.ops.ExchangeTracer}.
 *
 * @param accessLog where access log lines go, or null for none
 * @param accessLogFormat the access log's line format: Common Log Format unless set
 * @param errorLog where the server reports trouble outside the application (stderr unless set)
 * @param traces a span per request when OpenTelemetry is on the class path ({@code --otel auto},
 *               the default); false: never ({@code --otel off})
 */
public record LogSettings(OutputStream accessLog, AccessLogFormat accessLogFormat, ErrorLog errorLog, boolean traces) {
    public static final LogSettings DEFAULTS = new LogSettings(null, AccessLogFormat.COMMON, ErrorLog.stderr(), true);

    /** The {@code --otel} setting: {@code auto} or {@code off}. */
    public static boolean traces(String otel) {
        Check.that("auto".equals(otel) || "off".equals(otel), "otel must be auto or off, not " + otel);
        return "auto".equals(otel);
    }

    public void check() {
        Check.that(accessLogFormat != null, "access log format must not be null");
        Check.that(errorLog != null, "error log must not be null");
    }
}
