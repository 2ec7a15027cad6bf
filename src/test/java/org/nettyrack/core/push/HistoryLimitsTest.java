package org.nettyrack.core.push;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class HistoryLimitsTest {
    @Test
    void noMessagesIsNoHistoryWhateverElse() {
        assertFalse(HistoryLimits.NONE.on());
        assertFalse(HistoryLimits.of(0, 0, 0).on());
        assertTrue(HistoryLimits.of(1, 1, 1).on());
    }

    @Test
    void eachLimitOutOfRangeIsNamed() {
        assertEquals("push history must be 0 (none) or more messages, got -1",
            assertThrows(IllegalArgumentException.class, () -> HistoryLimits.of(-1, 1, 1)).getMessage());
        assertEquals("push history time must be at least 1 ms, got 0",
            assertThrows(IllegalArgumentException.class, () -> HistoryLimits.of(5, 0, 1)).getMessage());
        assertEquals("push history channels must be at least 1, got 0",
            assertThrows(IllegalArgumentException.class, () -> HistoryLimits.of(5, 1, 0)).getMessage());
        assertEquals("push history keeps at most 1000000 messages a channel, got 1000001",
            assertThrows(IllegalArgumentException.class, () -> HistoryLimits.of(1_000_001, 1, 1)).getMessage());
        assertEquals("push history keeps at most 10000000 channels, got 99999999999",
            assertThrows(IllegalArgumentException.class, () -> HistoryLimits.of(5, 1, 99_999_999_999L)).getMessage());
    }
}
