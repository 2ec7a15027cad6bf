package org.nettyrack.core.ops;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * What the control endpoint asks of the process that runs the server ({@code POST /stop},
 * {@code POST /restart}, {@code POST /reload-app}), passed from the endpoint's event loop to the launcher's thread,
 * which takes them one at a time in {@link #await} and does the work. Asking only queues, so no
 * event loop ever stops or restarts the server, or enters Ruby. {@link #close} releases a
 * waiter with null once nobody needs the orders any more; later orders are dropped.
 *
 * <pre>
 * control endpoint: orders.request(Orders.Kind.STOP, "control /stop")
 * launcher thread:  Order order = orders.await();   // STOP "control /stop", or null after close()
 * </pre>
 */
public final class Orders {
    public enum Kind {
        /** The graceful stop SIGTERM asks for. */
        STOP,
        /** A hot restart: a new process takes the listeners over, then this one drains. */
        RESTART,
        /** A reload of the application inside this process: a new runtime takes over from the serving one. */
        RELOAD
    }

    public record Order(Kind kind, String reason) {
    }

    private static final Order CLOSED = new Order(null, null);

    private final BlockingQueue<Order> queue = new LinkedBlockingQueue<>();
    private volatile boolean closed;

    public void request(Kind kind, String reason) {
        if (!closed) {
            queue.add(new Order(kind, reason));
        }
    }

    public void close() {
        closed = true;
        queue.add(CLOSED);
    }

    /** Blocks until an order comes, or {@link #close}: then null (and null for every later call). */
    public Order await() throws InterruptedException {
        Order order = queue.take();
        if (order == CLOSED) {
            queue.add(CLOSED);
            return null;
        }
        return order;
    }
}
