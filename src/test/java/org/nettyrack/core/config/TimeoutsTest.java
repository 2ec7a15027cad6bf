package org.nettyrack.core.config;

import static org.nettyrack.core.config.Bounds.accepts;
import static org.nettyrack.core.config.Bounds.refuses;

import org.junit.jupiter.api.Test;

class TimeoutsTest {
    private static final Timeouts D = Timeouts.DEFAULTS;

    @Test
    void theDefaultsPass() {
        accepts(D::check);
    }

    @Test
    void eachTimeoutHasItsFloor() {
        accepts(new Timeouts(1, 1, 0, 1, 1, 0)::check);
        refuses("header timeout must be positive", new Timeouts(0, D.bodyTimeoutMillis(), D.bodyMinRate(),
            D.keepAliveTimeoutMillis(), D.writeTimeoutMillis(), D.shutdownTimeoutMillis())::check);
        refuses("body timeout must be positive", new Timeouts(D.headerTimeoutMillis(), 0, D.bodyMinRate(),
            D.keepAliveTimeoutMillis(), D.writeTimeoutMillis(), D.shutdownTimeoutMillis())::check);
        refuses("body minimum rate must be 0 or more, got -1", new Timeouts(D.headerTimeoutMillis(), D.bodyTimeoutMillis(), -1,
            D.keepAliveTimeoutMillis(), D.writeTimeoutMillis(), D.shutdownTimeoutMillis())::check);
        refuses("keep-alive timeout must be positive", new Timeouts(D.headerTimeoutMillis(), D.bodyTimeoutMillis(), D.bodyMinRate(),
            0, D.writeTimeoutMillis(), D.shutdownTimeoutMillis())::check);
        refuses("write timeout must be positive", new Timeouts(D.headerTimeoutMillis(), D.bodyTimeoutMillis(), D.bodyMinRate(),
            D.keepAliveTimeoutMillis(), 0, D.shutdownTimeoutMillis())::check);
        refuses("shutdown timeout must be 0 or more", new Timeouts(D.headerTimeoutMillis(), D.bodyTimeoutMillis(), D.bodyMinRate(),
            D.keepAliveTimeoutMillis(), D.writeTimeoutMillis(), -1)::check);
    }
}
