package org.nettyrack.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class HostHeaderTest {
    @ParameterizedTest
    @ValueSource(strings = {"", "example.com", "example.com:8080", "EXAMPLE.com:", "127.0.0.1:9292", "[::1]", "[::1]:443",
        "[v1.fe80::a+en1]", "xn--bcher-kva.example", "a_b~c", "caf%C3%A9.example", "h:0", "!$&'()*+,;="})
    void acceptsWhatRfc3986CallsAHostWithAnOptionalPort(String value) {
        assertTrue(HostHeader.valid(value), value);
    }

    @ParameterizedTest
    @ValueSource(strings = {"a b", "u@h", "h/x", "h:abc", "h:80:80", "h:-1", "[::1", "[]", "[::1]x", "[::1]:8a", "h%2", "h%zz",
        "h\"", "h?q", "h#f", "é.example", ":80"})
    void refusesAnythingElse(String value) {
        assertFalse(HostHeader.valid(value), value);
    }

    @Test
    void splitsNameAndPort() {
        assertEquals("example.com", HostHeader.name("example.com:8080"));
        assertEquals("8080", HostHeader.port("example.com:8080"));
        assertNull(HostHeader.port("example.com:"), "no digits: no port");
        assertEquals("example.com", HostHeader.name("example.com:"));
        assertEquals("[::1]", HostHeader.name("[::1]"));
        assertNull(HostHeader.port("[::1]"));
        assertEquals("[::1]", HostHeader.name("[::1]:9"));
        assertEquals("9", HostHeader.port("[::1]:9"));
    }

    @Test
    void bracketsIpv6AddressesOnly() {
        assertEquals("[0:0:0:0:0:0:0:1]", HostHeader.uriHost("0:0:0:0:0:0:0:1"));
        assertEquals("127.0.0.1", HostHeader.uriHost("127.0.0.1"));
        assertFalse(HostHeader.uriHost("[::1]").startsWith("[["));
    }
}
