package org.nettyrack.core.push;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What a push connection has accepted from the application and not yet handed to its socket,
 * against the limit ({@code --max-push-queue}): the rule that keeps a client that stops
 * reading from making the server hold without bound, and the moment {@code on_drained} is due.
 * The transport counts each write in with {@link #admit} before queueing it and out with
 * {@link #written} once its transport took it (or failed it):
 * <pre>
 * app write ─→ admit(length, socketFull) ─false─→ refuse; close with {@link #refusal()} (1008)
 *                 │ true
 *                 └─→ transport queue ─→ socket ─→ written(length) ─true─→ on_drained
 * </pre>
 * A write is refused when the bytes waiting would pass the limit, unless nothing waits: one
 * message larger than the limit still goes out, alone. {@code on_drained} is due when the
 * backlog empties after a write found the transport's buffer full ({@code socketFull}). Safe
 * to use from any thread; the transport orders {@link #admit} with its own close.
 */
public final class SendBacklog {
    private final long maxBytes;
    private final AtomicLong bytes = new AtomicLong();
    private final AtomicInteger writes = new AtomicInteger();
    private final AtomicBoolean backedUp = new AtomicBoolean();

    public SendBacklog(long maxBytes) {
        this.maxBytes = maxBytes;
    }

    /**
     * Counts a write in; false, counting nothing, when it would take the backlog past the
     * limit. {@code socketFull}: the transport's buffer was full when the write came (Netty: the
     * channel not writable; a container: a send already in flight).
     */
    public boolean admit(int length, boolean socketFull) {
        long queued = bytes.addAndGet(length);
        if (queued > maxBytes && queued != length) {
            bytes.addAndGet(-length);
            return false;
        }
        writes.incrementAndGet();
        if (socketFull) {
            backedUp.set(true);
        }
        return true;
    }

    /** Counts an admitted write out; true when it emptied a backlog that had backed up: {@code on_drained} is due. */
    public boolean written(int length) {
        writes.decrementAndGet();
        return bytes.addAndGet(-length) == 0 && backedUp.compareAndSet(true, false);
    }

    /** Writes admitted and not yet written: {@code client.pending} while the connection is open. */
    public int writes() {
        return writes.get();
    }

    /** Bytes admitted and not yet written. */
    public long bytes() {
        return bytes.get();
    }

    /** How the connection closes after a refused write. */
    public PushClose refusal() {
        return PushClose.queueFull(maxBytes);
    }
}
