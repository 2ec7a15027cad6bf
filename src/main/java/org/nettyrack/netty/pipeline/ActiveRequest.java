package org.nettyrack.netty.pipeline;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One request's place in the server's count of work in progress, which a graceful stop waits
 * to see at zero: taken ({@link ServerState#activeRequest()}) when the dispatcher hands a
 * request on, and released once, by whoever holds it when the work ends: the dispatcher when
 * the answer was written or the connection hijacked, the push handler when an upgraded
 * connection closes. A second release does nothing.
 */
public final class ActiveRequest {
    private final AtomicInteger count;
    private final AtomicBoolean released = new AtomicBoolean();

    public ActiveRequest(AtomicInteger count) {
        this.count = count;
        count.incrementAndGet();
    }

    public void release() {
        if (released.compareAndSet(false, true)) {
            count.decrementAndGet();
        }
    }
}
