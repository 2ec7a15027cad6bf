package org.nettyrack.core.config;

import static org.nettyrack.core.config.Bounds.accepts;
import static org.nettyrack.core.config.Bounds.refuses;

import org.junit.jupiter.api.Test;

class Http2SettingsTest {
    @Test
    void theDefaultsPass() {
        accepts(Http2Settings.DEFAULTS::check);
    }

    @Test
    void streamsAndWindowHaveFloors() {
        accepts(new Http2Settings(false, 1, 1024, 200, 30_000)::check);
        refuses("max concurrent streams must be 1 or more, got 0", new Http2Settings(true, 0, 65_535, 200, 30_000)::check);
        refuses("HTTP/2 initial window must be at least 1024 bytes, got 1023", new Http2Settings(true, 100, 1023, 200, 30_000)::check);
    }

    @Test
    void resetsCountFromOneToAMillion() {
        accepts(new Http2Settings(true, 100, 65_535, 1, 30_000)::check);
        accepts(new Http2Settings(true, 100, 65_535, 1_000_000, 30_000)::check);
        refuses("HTTP/2 max resets must be 1..1000000, got 0", new Http2Settings(true, 100, 65_535, 0, 30_000)::check);
        refuses("HTTP/2 max resets must be 1..1000000, got 1000001", new Http2Settings(true, 100, 65_535, 1_000_001, 30_000)::check);
    }

    @Test
    void theResetWindowIsWholeSecondsFromOneTo3600() {
        accepts(new Http2Settings(true, 100, 65_535, 200, 1_000)::check);
        accepts(new Http2Settings(true, 100, 65_535, 200, 3_600_000)::check);
        refuses("HTTP/2 reset window must be whole seconds from 1 to 3600, got 0.999 s",
            new Http2Settings(true, 100, 65_535, 200, 999)::check);
        refuses("HTTP/2 reset window must be whole seconds from 1 to 3600, got 3601.0 s",
            new Http2Settings(true, 100, 65_535, 200, 3_601_000)::check);
        refuses("HTTP/2 reset window must be whole seconds from 1 to 3600, got 1.5 s",
            new Http2Settings(true, 100, 65_535, 200, 1_500)::check);
    }
}
