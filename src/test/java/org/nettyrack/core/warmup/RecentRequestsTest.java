package org.nettyrack.core.warmup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class RecentRequestsTest {
    @Test
    void keepsTheGetsAnsweredWellAsOftenAsTheyCame() {
        RecentRequests recent = new RecentRequests(10);
        recent.answered("GET", "/", 200);
        recent.answered("POST", "/orders", 201);
        recent.answered("GET", "/products/7", 200);
        recent.answered("GET", "/old", 301);
        recent.answered("GET", "/missing", 404);
        recent.answered("GET", "/boom", 500);
        recent.answered("HEAD", "/", 200);
        recent.answered("GET", "/products/7", 200);
        recent.answered("GET", "*", 200);
        assertEquals(List.of("/", "/products/7", "/old", "/products/7"), recent.targets());
    }

    @Test
    void keepsTheNewestWhenFullOldestFirst() {
        RecentRequests recent = new RecentRequests(3);
        for (int i = 1; i <= 7; i++) {
            recent.answered("GET", "/" + i, 200);
        }
        assertEquals(List.of("/5", "/6", "/7"), recent.targets());
        assertEquals(List.of(), new RecentRequests(3).targets());
    }

    @Test
    void refusesAnEmptySample() {
        assertThrows(IllegalArgumentException.class, () -> new RecentRequests(0));
    }
}
