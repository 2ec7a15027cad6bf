package org.nettyrack.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** What the seam gives a transport that implements only the required methods. */
class RackRequestTest {
    @Test
    void theApplicationIsMountedAtTheRootUnlessTheTransportSaysOtherwise() {
        assertEquals("", new FakeRequest("GET", "/", "HTTP/1.1").scriptName());
    }

    @Test
    void everyValueOfAHeaderInArrivalOrderWhateverTheNamesCase() {
        RackRequest request = new FakeRequest("GET", "/", "HTTP/1.1")
            .header("Connection", "keep-alive").header("Accept", "*/*").header("connection", "Upgrade");
        assertEquals(List.of("keep-alive", "Upgrade"), request.headers("CONNECTION"));
        assertEquals(List.of(), request.headers("upgrade"));
    }
}
