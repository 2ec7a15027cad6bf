package org.nettyrack.core;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ResponseSinkTest {
    @Test
    void informationalNoContentAndNotModifiedHaveNoBody() {
        for (int status : new int[] {100, 101, 103, 204, 304}) {
            assertTrue(ResponseSink.bodiless(status), String.valueOf(status));
        }
        for (int status : new int[] {200, 201, 206, 301, 404, 500}) {
            assertFalse(ResponseSink.bodiless(status), String.valueOf(status));
        }
    }
}
