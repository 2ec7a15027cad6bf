package org.nettyrack.core.push;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The closings both doors share. */
class PushCloseTest {
    @Test
    void theSharedClosingsCarryTheirCodes() {
        assertEquals(1000, PushClose.DONE.code());
        assertEquals(1001, PushClose.IDLE.code());
        assertEquals(1001, PushClose.SHUTDOWN.code());
        assertEquals(1009, PushClose.MESSAGE_TOO_BIG.code());
        assertEquals(1011, PushClose.INTERNAL.code());
        assertEquals(1008, PushClose.queueFull(1024).code());
    }

    @Test
    void reasonsFitAControlFrame() {
        for (PushClose close : List.of(PushClose.DONE, PushClose.IDLE, PushClose.SHUTDOWN, PushClose.MESSAGE_TOO_BIG,
                PushClose.INTERNAL, PushClose.queueFull(Long.MAX_VALUE))) {
            assertTrue(close.reason().getBytes(StandardCharsets.UTF_8).length <= 123, close.reason());
        }
    }

    @Test
    void codesOutsideTheRangeAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new PushClose(999, ""));
        assertThrows(IllegalArgumentException.class, () -> new PushClose(5000, ""));
        assertEquals("", new PushClose(4000, null).reason());
    }
}
