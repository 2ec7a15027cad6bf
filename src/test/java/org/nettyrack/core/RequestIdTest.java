package org.nettyrack.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class RequestIdTest {
    @ParameterizedTest
    @ValueSource(strings = {"a", "5f0c2e7a-1b2c-4d5e-8f90-123456789abc", "req_1.2:3/4+5=6@x", "!#$%&()*+,-./~"})
    void keepsASaneId(String sent) {
        assertTrue(RequestId.sane(sent));
        assertEquals(sent, RequestId.of(List.of(sent)));
    }

    @Test
    void keepsTwoHundredCharactersButNotMore() {
        assertEquals("x".repeat(200), RequestId.of(List.of("x".repeat(200))));
        assertFalse(RequestId.sane("x".repeat(201)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "a b", "a\tb", "\"quoted\"", "it's", "back\\slash", "caf\u00e9", "a\u0000b", "a\u007fb"})
    void ignoresAnInsaneOne(String sent) {
        assertFalse(RequestId.sane(sent));
        assertMade(RequestId.of(List.of(sent)));
    }

    @Test
    void makesOneForNoneOrSeveral() {
        assertMade(RequestId.of(List.of()));
        assertMade(RequestId.of(List.of("a", "b")));
        assertFalse(RequestId.sane(null));
    }

    @Test
    void makesADifferentOneEachTime() {
        Set<String> made = new HashSet<>();
        for (int i = 0; i < 1000; i++) {
            made.add(RequestId.make());
        }
        assertEquals(1000, made.size());
    }

    @Test
    void tellsWhetherTheRequestsOwnIdIsKept() {
        assertTrue(RequestId.kept(new FakeRequest("GET", "/", "HTTP/1.1").header("X-Request-Id", "abc")));
        assertFalse(RequestId.kept(new FakeRequest("GET", "/", "HTTP/1.1")));
        assertFalse(RequestId.kept(new FakeRequest("GET", "/", "HTTP/1.1").header("X-Request-Id", "a b")));
        FakeRequest twice = new FakeRequest("GET", "/", "HTTP/1.1").header("X-Request-Id", "a").header("X-Request-Id", "a");
        assertFalse(RequestId.kept(twice), "two ids are none");
        assertEquals(twice.requestId(), twice.requestId(), "computed once");
    }

    @Test
    void answersWithTheIdUnlessTheApplicationGaveOne() {
        ResponseHeaders plain = new ResponseHeaders();
        RequestId.answer(plain, "abc");
        assertEquals("abc", plain.get("x-request-id"));
        ResponseHeaders own = new ResponseHeaders();
        own.add("X-Request-Id", "app's");
        RequestId.answer(own, "abc");
        assertEquals(1, own.size());
        assertEquals("app's", own.get("x-request-id"));
    }

    private static void assertMade(String id) {
        assertTrue(id.matches("[0-9a-f]{32}"), id);
        assertNotEquals("0".repeat(32), id);
    }
}
