package org.nettyrack.core.config;

import static org.nettyrack.core.config.Bounds.accepts;
import static org.nettyrack.core.config.Bounds.refuses;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ControlSettingsTest {
    @Test
    void theDefaultsPass() {
        accepts(ControlSettings.DEFAULTS::check);
    }

    @Test
    void theTimeoutMustBePositive() {
        accepts(new ControlSettings(null, 1)::check);
        refuses("control timeout must be positive", new ControlSettings(null, 0)::check);
    }

    @Test
    void aTcpEndpointNeedsAHostAndAPort() {
        accepts(new ControlSettings(new ControlEndpoint("127.0.0.1", 0, "t"), 5_000)::check);
        accepts(new ControlSettings(new ControlEndpoint("127.0.0.1", 65535, null), 5_000)::check);
        refuses("control port must be 0..65535, got 65536", new ControlSettings(new ControlEndpoint("127.0.0.1", 65536, "t"), 5_000)::check);
        refuses("control port must be 0..65535, got -1", new ControlSettings(new ControlEndpoint("127.0.0.1", -1, "t"), 5_000)::check);
        refuses("control host must not be empty", new ControlSettings(new ControlEndpoint("", 1, "t"), 5_000)::check);
        refuses("control endpoint must be tcp or unix, got ssl",
            new ControlSettings(new ControlEndpoint(new Bind("ssl", "127.0.0.1", 1, null, Map.of()), "t"), 5_000)::check);
    }

    @Test
    void aUnixEndpointIsCheckedAsABind() {
        accepts(new ControlSettings(new ControlEndpoint(new Bind("unix", null, 0, "/run/ctl.sock", Map.of()), "t"), 5_000)::check);
        refuses("unix bind path must not be empty",
            new ControlSettings(new ControlEndpoint(new Bind("unix", null, 0, "", Map.of()), "t"), 5_000)::check);
    }

    @Test
    void anEmptyTokenIsRefused() {
        refuses("control token must not be empty (opt out of tokens explicitly instead)",
            new ControlSettings(new ControlEndpoint("127.0.0.1", 1, ""), 5_000)::check);
    }
}
