package org.nettyrack.core.config;

import java.io.OutputStream;
import org.nettyrack.core.AccessLogFormat;
import org.nettyrack.core.ErrorLog;

/**
 * Where the server writes: the access log (a line per request, in a format) and the error
 * log (trouble outside the application). Read when a door starts and makes its
 * {@link org.nettyrack.core.AccessLog}; nothing here is checked, every value is usable.
 *
 * @param accessLog where access log lines go, or null for none
 * @param accessLogFormat the access log's line format: Common Log Format unless set
 * @param errorLog where the server reports trouble outside the application (stderr unless set)
 */
public record LogSettings(OutputStream accessLog, AccessLogFormat accessLogFormat, ErrorLog errorLog) {
    public static final LogSettings DEFAULTS = new LogSettings(null, AccessLogFormat.COMMON, ErrorLog.stderr());

    public void check() {
        Check.that(accessLogFormat != null, "access log format must not be null");
        Check.that(errorLog != null, "error log must not be null");
    }
}
