package org.nettyrack.core.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class CacheRulesTest {
    private final CacheRules rules = new CacheRules(List.of(
        new CacheRules.Rule("/", "no-cache"),
        new CacheRules.Rule("/assets/", "public, max-age=31536000, immutable"),
        new CacheRules.Rule("/assets/dev/", "no-store")));

    @Test
    void longestPrefixWins() {
        assertEquals("public, max-age=31536000, immutable", rules.forPath("/assets/app-1a2b.js"));
        assertEquals("no-store", rules.forPath("/assets/dev/x.js"));
        assertEquals("no-cache", rules.forPath("/robots.txt"));
        assertEquals(null, CacheRules.NONE.forPath("/assets/app.js"));
    }

    @Test
    void refusesPrefixesAndValuesThatCannotBeRight() {
        assertThrows(IllegalArgumentException.class, () -> new CacheRules.Rule("assets/", "public"));
        assertThrows(IllegalArgumentException.class, () -> new CacheRules.Rule("/assets/", " "));
        assertThrows(IllegalArgumentException.class, () -> new CacheRules.Rule("/assets/", "public\r\nx: y"));
    }
}
