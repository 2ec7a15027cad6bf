package org.nettyrack.redis;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Messages on their way to Redis, between any number of publishing threads and the one
 * {@link Writer} thread. {@link #offer} never blocks: when the queue is full (Redis slow or
 * away) the oldest message is dropped, and the log gets one line when dropping starts and one
 * with the count once the queue has drained. Also the writer's alarm clock: {@link #await}
 * returns early for a subscription change ({@link #wake}) or {@link #close}.
 */
final class PublishQueue {
    /**
     * One PUBLISH to send. seq: its place among this engine's messages ({@link #offer(byte[],
     * byte[])} numbers them in queue order), by which a history tells a message sent again from
     * one Redis already has; queuedNanos: when it was published here ({@code System.nanoTime()}).
     */
    record Outgoing(byte[] channel, byte[] data, long seq, long queuedNanos) {
        Outgoing(byte[] channel, byte[] data, long seq) {
            this(channel, data, seq, System.nanoTime());
        }
    }

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final ArrayDeque<Outgoing> messages = new ArrayDeque<>();
    private final int capacity;
    private final LinkStatus status;
    private long dropped;
    private long sequence;
    private boolean woken;
    private boolean closed;

    PublishQueue(int capacity, LinkStatus status) {
        if (capacity < 1) {
            throw new IllegalArgumentException("the publish queue needs room for 1 message at least, got " + capacity);
        }
        this.capacity = capacity;
        this.status = status;
    }

    /** A new message, numbered after every one offered before it. */
    void offer(byte[] channel, byte[] data) {
        lock.lock();
        try {
            offer(new Outgoing(channel, data, ++sequence));
        } finally {
            lock.unlock();
        }
    }

    /** A message as it is (one moved from another queue keeps its number). */
    void offer(Outgoing message) {
        boolean firstDrop = false;
        lock.lock();
        try {
            if (messages.size() == capacity) {
                messages.pollFirst();
                firstDrop = dropped++ == 0;
            }
            messages.addLast(message);
            changed.signal();
        } finally {
            lock.unlock();
        }
        if (firstDrop) {
            status.log("publish queue full (" + capacity + " messages waiting for Redis); dropping the oldest");
        }
    }

    /**
     * Puts messages taken but not confirmed by Redis back in front, in their order, to go
     * first once Redis is back; beyond the capacity the oldest are dropped, as in {@link #offer}.
     */
    void requeue(List<Outgoing> unsent) {
        boolean firstDrop = false;
        lock.lock();
        try {
            for (int i = unsent.size() - 1; i >= 0; i--) {
                if (messages.size() == capacity) {
                    firstDrop |= dropped++ == 0;
                    continue; // older than everything queued: this one is dropped
                }
                messages.addFirst(unsent.get(i));
            }
            changed.signal();
        } finally {
            lock.unlock();
        }
        if (firstDrop) {
            status.log("publish queue full (" + capacity + " messages waiting for Redis); dropping the oldest");
        }
    }

    /** Up to max messages, oldest first, taken off the queue. */
    List<Outgoing> take(int max) {
        List<Outgoing> batch;
        long drops = 0;
        lock.lock();
        try {
            batch = new ArrayList<>(Math.min(max, messages.size()));
            while (batch.size() < max && !messages.isEmpty()) {
                batch.add(messages.pollFirst());
            }
            if (messages.isEmpty()) {
                drops = dropped;
                dropped = 0;
            }
        } finally {
            lock.unlock();
        }
        if (drops > 0) {
            status.log("publish queue drained; " + drops + " messages were dropped");
        }
        return batch;
    }

    /**
     * Waits until {@link #wake} or {@link #close} is called, until messages are waiting (when
     * forMessages), or for at most timeoutNanos. Clears the wake-up.
     */
    void await(boolean forMessages, long timeoutNanos) throws InterruptedException {
        lock.lock();
        try {
            long left = timeoutNanos;
            while (!woken && !closed && !(forMessages && !messages.isEmpty()) && left > 0) {
                left = changed.awaitNanos(left);
            }
            woken = false;
        } finally {
            lock.unlock();
        }
    }

    void wake() {
        lock.lock();
        try {
            woken = true;
            changed.signal();
        } finally {
            lock.unlock();
        }
    }

    void close() {
        lock.lock();
        try {
            closed = true;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    boolean isClosed() {
        lock.lock();
        try {
            return closed;
        } finally {
            lock.unlock();
        }
    }

    int size() {
        lock.lock();
        try {
            return messages.size();
        } finally {
            lock.unlock();
        }
    }

    /** How long the oldest message has waited, in ns (one sent again keeps its first wait); 0 when none waits. */
    long oldestWaitNanos() {
        lock.lock();
        try {
            Outgoing oldest = messages.peekFirst();
            return oldest == null ? 0 : Math.max(0, System.nanoTime() - oldest.queuedNanos());
        } finally {
            lock.unlock();
        }
    }
}
