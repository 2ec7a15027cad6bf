package org.nettyrack.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** X-Request-Start as proxies write it: the unit told by the size, anything else ignored. */
class RequestStartTest {
    private static final long MICROS = 1_795_966_000_123_456L; // 2026-11-29

    @Test
    void readsSecondsMillisecondsMicrosecondsAndNanoseconds() {
        assertEquals(1_795_966_000_123_000L, RequestStart.parseMicros("t=1795966000.123")); // nginx's ${msec}
        assertEquals(1_795_966_000_123_000L, RequestStart.parseMicros("t=1795966000123")); // Heroku's router: ms
        assertEquals(MICROS, RequestStart.parseMicros("t=" + MICROS));
        assertEquals(MICROS, RequestStart.parseMicros(MICROS * 1000 + "")); // ns, without t=
        assertEquals(MICROS, RequestStart.parseMicros(" t=" + MICROS + " "));
    }

    @Test
    void ignoresWhatIsNotATime() {
        for (String bad : new String[] {null, "", "t=", "t=abc", "t=-5", "t=0", "t=12", "t=NaN", "t=Infinity",
                                        "t=1e400", "t=99999999999999999999999999", "t=1795966000123 extra", "x".repeat(100)}) {
            assertEquals(0, RequestStart.parseMicros(bad), String.valueOf(bad));
        }
    }

    @Test
    void writesMicrosecondsForARequestThatCameWithout() {
        assertEquals("t=" + MICROS, RequestStart.header(MICROS));
        assertEquals(MICROS, RequestStart.parseMicros(RequestStart.header(MICROS)));
        for (long micros : new long[] {MICROS, 0, 7, 10, 999_999}) {
            assertEquals(RequestStart.header(micros), new String(RequestStart.headerBytes(micros), java.nio.charset.StandardCharsets.US_ASCII));
        }
    }
}
