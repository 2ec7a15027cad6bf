package org.nettyrack.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class BackoffTest {
    @Test
    void doublesUpToTheMaximumAndStartsOverAfterReset() {
        Backoff backoff = new Backoff(100, 5_000);
        assertEquals(List.of(100L, 200L, 400L, 800L, 1600L, 3200L, 5000L, 5000L),
            Stream.generate(backoff::next).limit(8).toList());
        backoff.reset();
        assertEquals(100, backoff.next());
    }

    @Test
    void rejectsNonsense() {
        assertThrows(IllegalArgumentException.class, () -> new Backoff(0, 10));
        assertThrows(IllegalArgumentException.class, () -> new Backoff(10, 5));
    }
}
