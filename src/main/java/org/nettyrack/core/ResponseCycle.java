package org.nettyrack.core;

/**
 * The bookkeeping of one response that every door's {@link ResponseSink} keeps alike, whatever
 * writes the bytes: whether it has started (committed: its head left, or a whole answer was
 * given; nothing can replace it now) and finished (its end or abort came, or an upgrade or a
 * hijack took the connection), the body length its head declared and the body bytes sent. And
 * the rules on them: a response starts once; an upgrade needs a request that asked for one and
 * nothing started; a body that ended at another length than its head declared is truncated,
 * so the connection must close rather than be reused.
 *
 * <p>Used from the worker thread that runs the application; {@link #committed()} may be read
 * from another (the event loop asking whether a 103 may still go).
 */
public final class ResponseCycle {
    private volatile boolean committed;
    private boolean finished;
    private boolean bodyAllowed;
    private long declaredLength = -1;
    private long bytesSent;

    /**
     * A head was chosen (not sent yet): whether the response may carry a body (not for HEAD,
     * 1xx, 204, 304). Its declared length is unknown until {@link #declare}.
     * @throws IllegalStateException when the response has started already
     */
    public void start(boolean bodyAllowed) {
        requireNotStarted();
        this.bodyAllowed = bodyAllowed;
        this.declaredLength = -1;
    }

    /** The body length a streamed head declares; -1 when unknown (chunked, or until the connection closes). */
    public void declare(long declaredLength) {
        this.declaredLength = declaredLength;
    }

    /** A whole answer, head and body (bodyBytes of it) at once: started and finished. */
    public void whole(long bodyBytes) {
        committed = true;
        finished = true;
        bytesSent = bodyBytes;
    }

    /** The head leaves now; true the first time only (the caller then sends it). */
    public boolean commit() {
        if (committed) {
            return false;
        }
        committed = true;
        return true;
    }

    /** Body bytes handed to the transport. */
    public void sent(long bytes) {
        bytesSent += bytes;
    }

    /** The response's end (or abort) came; true the first time only. */
    public boolean finish() {
        if (finished) {
            return false;
        }
        finished = true;
        return true;
    }

    /** Whether the body sent differs from the length the head declared: the connection must close. */
    public boolean truncated() {
        return bodyAllowed && declaredLength >= 0 && bytesSent != declaredLength;
    }

    /**
     * The application accepted the upgrade the request asked for, instead of answering.
     * @throws IllegalStateException when the request asked for none, or the response has started
     */
    public void upgrade(Upgrade asked) {
        if (asked == Upgrade.NONE) {
            throw new IllegalStateException("the request asked for no upgrade");
        }
        handOver();
    }

    /**
     * The connection leaves HTTP (an accepted upgrade, a hijack): nothing more is written here.
     * @throws IllegalStateException when the response has started
     */
    public void handOver() {
        requireNotStarted();
        committed = true;
        finished = true;
    }

    public boolean bodyAllowed() {
        return bodyAllowed;
    }

    public boolean committed() {
        return committed;
    }

    public boolean finished() {
        return finished;
    }

    public long declaredLength() {
        return declaredLength;
    }

    public long bytesSent() {
        return bytesSent;
    }

    /** @throws IllegalStateException when the response has started */
    public void requireNotStarted() {
        if (committed) {
            throw new IllegalStateException("response already started");
        }
    }
}
