package org.nettyrack.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The W3C Trace Context's traceparent (https://www.w3.org/TR/trace-context/, 3.2), its examples first. */
class TraceParentTest {
    private static final String TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String PARENT = "00f067aa0ba902b7";

    @Test
    void readsTheSpecsSampledExample() {
        assertEquals(new TraceParent(TRACE, PARENT, true), TraceParent.parse("00-" + TRACE + "-" + PARENT + "-01"));
    }

    @Test
    void readsTheSpecsUnsampledExample() {
        assertEquals(new TraceParent(TRACE, PARENT, false), TraceParent.parse("00-" + TRACE + "-" + PARENT + "-00"));
    }

    @Test
    void takesSampledFromTheFlagsLowestBitOnly() {
        assertEquals(false, TraceParent.parse("00-" + TRACE + "-" + PARENT + "-02").sampled());
        assertEquals(true, TraceParent.parse("00-" + TRACE + "-" + PARENT + "-ff").sampled());
    }

    @Test
    void readsALaterVersionAndIgnoresWhatItAdds() {
        assertEquals(new TraceParent(TRACE, PARENT, true), TraceParent.parse("01-" + TRACE + "-" + PARENT + "-01"));
        assertEquals(new TraceParent(TRACE, PARENT, true), TraceParent.parse("cc-" + TRACE + "-" + PARENT + "-01-what-the-future-says"));
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "",
        "00-4BF92F3577B34DA6A3CE929D0E0E4736-00F067AA0BA902B7-01", // uppercase hex
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00F067AA0BA902B7-01",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-0A",
        "0A-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
        "00-00000000000000000000000000000000-00f067aa0ba902b7-01", // all-zero trace id
        "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01", // all-zero parent id
        "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", // version ff
        "00-4bf92f3577b34da6a3ce929d0e0e473-00f067aa0ba902b7-01",  // too short
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b-01",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-1",
        "00-4bf92f3577b34da6a3ce929d0e0e47366-00f067aa0ba902b7-01", // too long
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra", // version 00 is exactly 55
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-010",
        "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-010", // more, not after a '-'
        "00_4bf92f3577b34da6a3ce929d0e0e4736_00f067aa0ba902b7_01",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01, 00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
        "zz-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
        "00-4bf92f3577b34da6a3ce929d0e0e473g-00f067aa0ba902b7-01",
        " 00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
    })
    void ignoresAnInvalidOne(String value) {
        assertNull(TraceParent.parse(value), value);
    }

    @Test
    void ignoresNone() {
        assertNull(TraceParent.parse(null));
    }
}
