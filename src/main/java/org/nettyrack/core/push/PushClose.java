package org.nettyrack.core.push;

/**
 * Why the server ends a push connection: a WebSocket close frame's status code (RFC 6455
 * 7.4.1) and reason. An SSE stream has no close frame; it just ends, whatever the reason.
 * The closings both doors share are named here; a reason fits a control frame (at most 123
 * bytes of UTF-8).
 */
public record PushClose(int code, String reason) {
    public static final int NORMAL = 1000;
    public static final int GOING_AWAY = 1001;
    public static final int PROTOCOL_ERROR = 1002;
    public static final int INVALID_DATA = 1007;
    public static final int POLICY = 1008;
    public static final int TOO_BIG = 1009;
    public static final int INTERNAL_ERROR = 1011;

    /** {@code client.close}: after everything queued. */
    public static final PushClose DONE = new PushClose(NORMAL, "");
    /** A WebSocket silent through a ping and another timeout ({@link IdlePolicy}). */
    public static final PushClose IDLE = new PushClose(GOING_AWAY, "idle timeout");
    /** The server stops; {@code on_shutdown} has run. */
    public static final PushClose SHUTDOWN = new PushClose(GOING_AWAY, "server shutting down");
    /** A message over {@code --max-message-size}, after decompression, fragments joined. */
    public static final PushClose MESSAGE_TOO_BIG = new PushClose(TOO_BIG, "message over the size limit");
    /** A failure of the server's own, not the client's. */
    public static final PushClose INTERNAL = new PushClose(INTERNAL_ERROR, "internal server error");

    public PushClose {
        if (code < 1000 || code > 4999) {
            throw new IllegalArgumentException("close code must be 1000..4999, got " + code);
        }
        if (reason == null) {
            reason = "";
        }
    }

    /** A write that would take the send backlog past its limit ({@link SendBacklog}). */
    public static PushClose queueFull(long maxBytes) {
        return new PushClose(POLICY, "send queue over " + maxBytes + " bytes: the client is not reading");
    }
}
