package org.nettyrack.core.push;

import org.nettyrack.core.Upgrade;

/**
 * The life of one push connection, the same in every door: which step it is at, and which
 * step each event may take it to. The transport (Netty's {@code NettyPushConnection}, the
 * servlet door's {@code WebSocketConnection} and {@code EventStreamConnection}) asks this
 * class before it writes or closes, and does only the writing and closing itself:
 * <pre>
 *  OPEN ──close(reason), admit over the limit, peerClosing()──→ CLOSING ──sendingClose()──→ CLOSED
 *   │                                          │                                              │
 *   └── lost() (the transport can take no more) ─→ CLOSED                                     │
 *   └──────────────── ended() (the transport reports the connection gone) ─────────────────→ ENDED
 * </pre>
 * <ul>
 * <li>{@link State#OPEN}: writes are admitted against the {@link SendBacklog} (past
 * {@code --max-push-queue}: {@link Admission#OVER_LIMIT}, and the connection is closing with
 * 1008); keep-alives are due when the {@link IdlePolicy} asks; {@code on_drained} is due when
 * a backed-up backlog empties.</li>
 * <li>{@link State#CLOSING}: a close was asked for (by the app, the server, the idle policy,
 * the limit, or the peer's close frame); writes are refused, those already admitted still go
 * out, then the transport sends its close ({@link #sendingClose}, once).</li>
 * <li>{@link State#CLOSED}: the close went out, or the transport failed; nothing more is written.</li>
 * <li>{@link State#ENDED}: the transport reported the connection gone, whatever ended it;
 * {@link #ended} says so exactly once, and the transport then reports {@code on_close}.</li>
 * </ul>
 * A late event (a write, a close or a timer after the end) finds the connection past
 * {@code OPEN} and does nothing. Safe to use from any thread; a transport that must order its
 * own writes against the close (so no message follows a close frame) holds its own lock
 * around the call here and the write.
 */
public final class PushLifecycle {
    /** Where a connection is in its life. */
    public enum State { OPEN, CLOSING, CLOSED, ENDED }

    /** What became of a write. */
    public enum Admission {
        /** Counted in: the transport queues it. */
        ACCEPTED,
        /** The connection is no longer open: dropped, {@code send} returns false. */
        NOT_OPEN,
        /** It would pass the limit: dropped, and the connection is now closing with {@link #closeReason} (1008). */
        OVER_LIMIT
    }

    private final SendBacklog backlog;
    private final IdlePolicy idle;
    private final Upgrade protocol;
    private final PushTally tally;
    private volatile State state = State.OPEN;
    private PushClose reason; // guarded by this

    public PushLifecycle(Upgrade protocol, long maxQueueBytes, long timeoutMillis) {
        this(protocol, maxQueueBytes, timeoutMillis, PushTally.NONE);
    }

    /** tally: where each write's admission is counted (the server's metrics). */
    public PushLifecycle(Upgrade protocol, long maxQueueBytes, long timeoutMillis, PushTally tally) {
        this.backlog = new SendBacklog(maxQueueBytes);
        this.idle = new IdlePolicy(protocol, timeoutMillis);
        this.protocol = protocol;
        this.tally = tally;
    }

    public State state() {
        return state;
    }

    /** True until a close was asked for or the connection ended: {@code client.open?}. */
    public boolean isOpen() {
        return state == State.OPEN;
    }

    /** Counts a write in; {@code socketFull} as for {@link SendBacklog#admit}. */
    public synchronized Admission admit(int length, boolean socketFull) {
        if (state != State.OPEN) {
            tally.dropped(protocol);
            return Admission.NOT_OPEN;
        }
        if (!backlog.admit(length, socketFull)) {
            begin(backlog.refusal());
            tally.dropped(protocol);
            tally.closedSlow(protocol);
            return Admission.OVER_LIMIT;
        }
        tally.sent(protocol);
        return Admission.ACCEPTED;
    }

    /** Counts an admitted write out (sent or failed); true when {@code on_drained} is due. */
    public boolean written(int length) {
        return backlog.written(length) && state == State.OPEN;
    }

    /** Asks for a close with {@code reason}; true when this call began it (the connection was open). */
    public synchronized boolean close(PushClose reason) {
        if (state != State.OPEN) {
            return false;
        }
        begin(reason);
        return true;
    }

    /** The peer's close frame arrived; true when we had not begun a close and must answer it. */
    public synchronized boolean peerClosing() {
        if (state != State.OPEN) {
            return false;
        }
        state = State.CLOSING;
        return true;
    }

    /** Why the server began the close; null while open, or when the peer began it. */
    public synchronized PushClose closeReason() {
        return reason;
    }

    /** The transport is about to send its close (everything admitted is out): true once, from {@code CLOSING}. */
    public synchronized boolean sendingClose() {
        if (state != State.CLOSING) {
            return false;
        }
        state = State.CLOSED;
        return true;
    }

    /** The transport failed a write or a close: nothing more is written; its end is reported later. */
    public synchronized void lost() {
        if (state != State.ENDED) {
            state = State.CLOSED;
        }
    }

    /** The transport reports the connection gone; true the first time: {@code on_close} is due. */
    public synchronized boolean ended() {
        if (state == State.ENDED) {
            return false;
        }
        state = State.ENDED;
        return true;
    }

    /** Writes admitted and not yet written while open; -1 after: {@code client.pending}. */
    public int pending() {
        return state == State.OPEN ? backlog.writes() : -1;
    }

    /** Bytes admitted and not yet written. */
    public long queuedBytes() {
        return backlog.bytes();
    }

    /** The connection's timeouts; the transport runs the timers. */
    public IdlePolicy idle() {
        return idle;
    }

    private void begin(PushClose close) {
        reason = close;
        state = State.CLOSING;
    }
}
