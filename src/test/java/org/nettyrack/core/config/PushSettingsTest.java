package org.nettyrack.core.config;

import static org.nettyrack.core.config.Bounds.accepts;
import static org.nettyrack.core.config.Bounds.refuses;

import org.junit.jupiter.api.Test;

class PushSettingsTest {
    @Test
    void theDefaultsPass() {
        accepts(PushSettings.DEFAULTS::check);
    }

    @Test
    void eachLimitHasItsFloor() {
        accepts(new PushSettings(125, 1024, 100, 0)::check);
        refuses("max message size must be at least 125 bytes, got 124", new PushSettings(124, 1024, 100, 0)::check);
        refuses("max push queue must be at least 1024 bytes, got 1023", new PushSettings(125, 1023, 100, 0)::check);
        refuses("push timeout must be at least 100 ms", new PushSettings(125, 1024, 99, 0)::check);
        accepts(new PushSettings(125, 1024, 100, 4096)::check);
        refuses("push send buffer must be 0 (the OS's) or at least 4096 bytes, got 4095",
            new PushSettings(125, 1024, 100, 4095)::check);
    }
}
