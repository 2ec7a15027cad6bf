package org.nettyrack.core.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class OrdersTest {
    private static Orders.Order take(Orders orders) {
        try {
            return orders.await();
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void ordersReachTheWaiterOneAtATimeInTheirOrder() throws Exception {
        Orders orders = new Orders();
        CompletableFuture<Orders.Order> waiter = CompletableFuture.supplyAsync(() -> take(orders));
        orders.request(Orders.Kind.RESTART, "control /restart");
        orders.request(Orders.Kind.STOP, "control /stop");
        assertEquals(new Orders.Order(Orders.Kind.RESTART, "control /restart"), waiter.get(5, TimeUnit.SECONDS));
        assertEquals(new Orders.Order(Orders.Kind.STOP, "control /stop"), take(orders));
    }

    @Test
    void closeReleasesEveryWaiterWithNullAndDropsLaterOrders() throws Exception {
        Orders orders = new Orders();
        CompletableFuture<Orders.Order> first = CompletableFuture.supplyAsync(() -> take(orders));
        CompletableFuture<Orders.Order> second = CompletableFuture.supplyAsync(() -> take(orders));
        orders.close();
        orders.request(Orders.Kind.STOP, "too late");
        assertNull(first.get(5, TimeUnit.SECONDS));
        assertNull(second.get(5, TimeUnit.SECONDS));
        assertNull(take(orders));
    }
}
