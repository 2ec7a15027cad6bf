package org.nettyrack.core.push;

import java.util.Locale;
import java.util.Set;
import org.nettyrack.core.ResponseHeaders;

/**
 * The response head of an accepted upgrade, from the status and headers the application
 * answered with (iodine's {@code rack.upgrade}: any status below 300, 0 and 101 included).
 * The application's fields go along, except those the handshake or the framing own
 * (connection, upgrade, keep-alive, content-length, transfer-encoding, the Sec-WebSocket-
 * answers). The transport adds its own framing on top: chunked or close-delimited SSE, and the
 * WebSocket handshake's accept, protocol and extensions fields.
 */
public final class PushHead {
    private static final Set<String> NOT_FORWARDED = Set.of("connection", "upgrade", "content-length",
        "transfer-encoding", "keep-alive", "sec-websocket-accept", "sec-websocket-extensions", "sec-websocket-protocol");
    public static final String EVENT_STREAM = "text/event-stream";

    private PushHead() {
    }

    /** The application's fields that go into the 101. */
    public static ResponseHeaders webSocket(ResponseHeaders app) {
        return forwarded(app);
    }

    /**
     * The subprotocol the application chose from the client's {@code Sec-WebSocket-Protocol}
     * offers, by answering that header; null for none.
     */
    public static String subprotocol(ResponseHeaders app) {
        return app.get("sec-websocket-protocol");
    }

    /**
     * An event stream's fields: the application's, with {@code content-type: text/event-stream}
     * (EventSource accepts nothing else) and {@code cache-control: no-cache} unless the
     * application chose its own caching.
     */
    public static ResponseHeaders sse(ResponseHeaders app) {
        ResponseHeaders out = forwarded(app);
        out.remove("content-type");
        out.add("content-type", EVENT_STREAM);
        if (!out.contains("cache-control")) {
            out.add("cache-control", "no-cache");
        }
        return out;
    }

    /** An event stream's status: 0 and 101 mean "upgrade", and 204 and 205 cannot carry a body: all of them become 200. */
    public static int sseStatus(int appStatus) {
        return appStatus < 200 || appStatus == 204 || appStatus == 205 ? 200 : appStatus;
    }

    private static ResponseHeaders forwarded(ResponseHeaders app) {
        ResponseHeaders out = new ResponseHeaders();
        for (int i = 0; i < app.size(); i++) {
            if (!NOT_FORWARDED.contains(app.name(i).toLowerCase(Locale.ROOT))) {
                out.add(app.name(i), app.value(i));
            }
        }
        return out;
    }
}
