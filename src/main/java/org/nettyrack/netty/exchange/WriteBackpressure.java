package org.nettyrack.netty.exchange;

import io.netty.channel.Channel;
import java.io.IOException;

/**
 * Holds the worker thread that writes a response while its channel cannot take more (past
 * Netty's write-buffer high water mark), so a client that does not read cannot make the server
 * buffer without bound. {@link RackDispatcher} wakes it when the channel's writability changes
 * or the channel goes. The wait ends in an {@link IOException} once the write timeout passes
 * or the client has gone.
 */
final class WriteBackpressure {
    private final Channel channel;
    private final long timeoutMillis;

    WriteBackpressure(Channel channel, long timeoutMillis) {
        this.channel = channel;
        this.timeoutMillis = timeoutMillis;
    }

    /** Returns once the channel is writable. For worker threads: the event loop would wait for itself. */
    void await() throws IOException {
        if (channel.isWritable()) {
            return;
        }
        long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
        synchronized (this) {
            while (!channel.isWritable() && channel.isActive()) {
                long waitMillis = (deadline - System.nanoTime()) / 1_000_000L;
                if (waitMillis <= 0) {
                    throw new IOException("write timed out: the client stopped reading");
                }
                try {
                    wait(waitMillis);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted while waiting for the client", e);
                }
            }
        }
        if (!channel.isActive()) {
            throw new IOException("client closed the connection");
        }
    }

    /** Wakes a waiting writer to look again. */
    synchronized void wake() {
        notifyAll();
    }
}
