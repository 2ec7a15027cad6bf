package org.nettyrack.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

class ResponseHeadersTest {
    @Test
    void keepsRepeatsAndOrderAndIgnoresCase() {
        ResponseHeaders h = new ResponseHeaders();
        for (int i = 0; i < 20; i++) {
            h.add("set-cookie", "c" + i);
        }
        h.add("Content-Type", "text/plain");
        assertEquals(21, h.size());
        assertEquals("c0", h.get("Set-Cookie"));
        assertEquals("text/plain", h.get("content-type"));
        h.remove("SET-COOKIE");
        assertEquals(1, h.size());
        assertEquals("Content-Type", h.name(0));
        assertFalse(h.contains("set-cookie"));
        assertNull(h.get("x"));
    }

    @Test
    void contentLengthIsTheFirstOneAsANumber() {
        ResponseHeaders h = new ResponseHeaders();
        assertEquals(-1, h.contentLength());
        h.add("Content-Length", " 42 ");
        h.add("content-length", "7");
        assertEquals(42, h.contentLength());
        ResponseHeaders unreadable = new ResponseHeaders();
        unreadable.add("content-length", "lots");
        assertEquals(-1, unreadable.contentLength());
    }
}
