package org.nettyrack.core.config;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** How the settings records' tests say a value is at a bound (accepted) or just past it (refused, with this message). */
final class Bounds {
    private Bounds() {
    }

    static void accepts(Runnable check) {
        assertDoesNotThrow(check::run);
    }

    static void refuses(String message, Runnable check) {
        assertEquals(message, assertThrows(IllegalArgumentException.class, check::run).getMessage());
    }
}
