package org.nettyrack.core.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.nettyrack.core.config.Bounds.accepts;
import static org.nettyrack.core.config.Bounds.refuses;

import org.junit.jupiter.api.Test;

class WorkerSettingsTest {
    @Test
    void theDefaultsFollowTheCores() {
        int cores = Runtime.getRuntime().availableProcessors();
        assertEquals(Math.max(1, cores), WorkerSettings.DEFAULTS.minThreads());
        assertEquals(Math.max(4, 2 * cores), WorkerSettings.DEFAULTS.maxThreads());
        accepts(WorkerSettings.DEFAULTS::check);
    }

    @Test
    void eachCountHasItsFloor() {
        accepts(new WorkerSettings(0, 1, 0, 0, 0, 0, 0, null)::check);
        refuses("minimum threads must be 0 or more, got -1", new WorkerSettings(-1, 1, 0, 0, 0, 0, 0, null)::check);
        refuses("maximum threads must be 1 or more, got 0", new WorkerSettings(0, 0, 0, 0, 0, 0, 0, null)::check);
        refuses("wait threads must be 0 or more, got -1", new WorkerSettings(0, 1, -1, 0, 0, 0, 0, null)::check);
        refuses("queue size must be 0 or more, got -1", new WorkerSettings(0, 1, 0, -1, 0, 0, 0, null)::check);
        refuses("max connections must be 0 (automatic) or more, got -1", new WorkerSettings(0, 1, 0, 0, -1, 0, 0, null)::check);
        refuses("io threads must be 0 or more, got -1", new WorkerSettings(0, 1, 0, 0, 0, -1, 0, null)::check);
        refuses("worker nice must be 0 to 19, got -1", new WorkerSettings(0, 1, 0, 0, 0, 0, -1, null)::check);
    }

    @Test
    void theMinimumMayReachTheMaximumAndNiceNineteen() {
        accepts(new WorkerSettings(8, 8, 0, 0, 0, 0, 19, null)::check);
        refuses("minimum threads (9) exceed the maximum (8)", new WorkerSettings(9, 8, 0, 0, 0, 0, 0, null)::check);
        refuses("worker nice must be 0 to 19, got 20", new WorkerSettings(1, 1, 0, 0, 0, 0, 20, null)::check);
    }

    @Test
    void aSetConnectionCapIsKept() {
        assertEquals(300, new WorkerSettings(1, 1, 0, 0, 300, 0, 0, null).connectionCap());
    }
}
