package org.nettyrack.core.config;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.nettyrack.core.config.Bounds.accepts;
import static org.nettyrack.core.config.Bounds.refuses;

import java.io.ByteArrayOutputStream;
import org.junit.jupiter.api.Test;
import org.nettyrack.core.AccessLogFormat;
import org.nettyrack.core.ErrorLog;

class LogSettingsTest {
    @Test
    void theDefaultsPass() {
        accepts(LogSettings.DEFAULTS::check);
        accepts(new LogSettings(new ByteArrayOutputStream(), AccessLogFormat.named("json"), new ErrorLog(new ByteArrayOutputStream()), false)::check);
    }

    @Test
    void aFormatAndAnErrorLogAreNeeded() {
        refuses("access log format must not be null", new LogSettings(null, null, ErrorLog.stderr(), true)::check);
        refuses("error log must not be null", new LogSettings(null, AccessLogFormat.COMMON, null, true)::check);
    }

    @Test
    void tracesAreAutoOrOff() {
        assertTrue(LogSettings.traces("auto"));
        assertFalse(LogSettings.traces("off"));
        refuses("otel must be auto or off, not on", () -> LogSettings.traces("on"));
    }
}
