package org.nettyrack.core.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class StopRequestsTest {
    @Test
    void wakesTheWaiterWithTheFirstReason() throws Exception {
        StopRequests stops = new StopRequests();
        CompletableFuture<String> waiter = CompletableFuture.supplyAsync(stops::await);
        stops.request("control /stop");
        stops.request("later");
        assertEquals("control /stop", waiter.get(5, TimeUnit.SECONDS));
        stops.close();
        assertEquals("control /stop", stops.await(), "close after a request changes nothing");
    }

    @Test
    void closeReleasesTheWaiterWithNull() throws Exception {
        StopRequests stops = new StopRequests();
        CompletableFuture<String> waiter = CompletableFuture.supplyAsync(stops::await);
        stops.close();
        assertNull(waiter.get(5, TimeUnit.SECONDS));
    }
}
