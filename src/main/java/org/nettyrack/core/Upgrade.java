package org.nettyrack.core;

import java.util.List;

/**
 * What a request may be switched to, judged from its head alone before the application runs
 * ({@link #of}); the bridge reports it as {@code env['rack.upgrade?']}. Every transport asks
 * this one rule, so the application sees the same answer behind either door.
 */
public enum Upgrade {
    /** A plain HTTP request. */
    NONE,
    /**
     * A valid RFC 6455 opening handshake: an HTTP/1.1 GET with {@code Upgrade: websocket},
     * {@code Connection: Upgrade} (a token of the list, any case, any of the fields),
     * a {@code Sec-WebSocket-Key} and {@code Sec-WebSocket-Version: 13}; or RFC 8441's: an
     * HTTP/2 extended CONNECT with {@code :protocol websocket} and {@code Sec-WebSocket-Version: 13}.
     */
    WEBSOCKET,
    /** A GET (any HTTP version) whose first Accept field names {@code text/event-stream}, any case. */
    SSE;

    private static final String EVENT_STREAM = "text/event-stream";

    /** The Rack name ({@code :websocket}, {@code :sse}), or null for {@link #NONE}. */
    public String rackName() {
        return this == NONE ? null : name().toLowerCase(java.util.Locale.ROOT);
    }

    /** What the request may be upgraded to; a plain request costs two header look-ups. */
    public static Upgrade of(RackRequest request) {
        if (request.connectProtocol() != null) { // RFC 8441: CONNECT on an HTTP/2 stream
            return "websocket".equals(request.connectProtocol()) && "13".equals(request.header("sec-websocket-version"))
                ? WEBSOCKET : NONE;
        }
        if (!"GET".equals(request.method())) {
            return NONE;
        }
        if (request.header("upgrade") != null && isWebSocketHandshake(request)) {
            return WEBSOCKET;
        }
        String accept = request.header("accept");
        return accept != null && containsIgnoreAsciiCase(accept, EVENT_STREAM) ? SSE : NONE;
    }

    /**
     * The protocols a request asks to switch to, Rack 3.1's {@code rack.protocol}: an HTTP/2
     * extended CONNECT's {@code :protocol}; on HTTP/1.1 the elements of its {@code Upgrade}
     * fields, in order, when {@code Connection} names {@code upgrade} (RFC 9110 7.8: a sender of
     * Upgrade MUST send that option; an HTTP/1.0 request's Upgrade is ignored). Empty for a
     * request that asks for none.
     */
    public static List<String> protocols(RackRequest request) {
        if (request.connectProtocol() != null) {
            return List.of(request.connectProtocol());
        }
        if (request.header("upgrade") == null || !"HTTP/1.1".equals(request.protocol())
            || !hasToken(request.headers("connection"), "upgrade")) {
            return List.of();
        }
        List<String> protocols = new java.util.ArrayList<>(1);
        for (String field : request.headers("upgrade")) {
            for (String element : field.split(",")) {
                String protocol = element.trim();
                if (!protocol.isEmpty()) {
                    protocols.add(protocol);
                }
            }
        }
        return protocols;
    }

    private static boolean isWebSocketHandshake(RackRequest request) {
        return hasToken(request.headers("upgrade"), "websocket")
            && hasToken(request.headers("connection"), "upgrade")
            && request.header("sec-websocket-key") != null
            && "13".equals(request.header("sec-websocket-version"))
            && "HTTP/1.1".equals(request.protocol());
    }

    /** Whether a comma-separated element of any of the values, trimmed, is the token (any case). */
    static boolean hasToken(List<String> values, String token) {
        return listed(values, token, true);
    }

    /**
     * Whether the client offered this WebSocket subprotocol in its {@code Sec-WebSocket-Protocol}
     * fields: compared exactly, as RFC 6455 (4.1) has subprotocol names case-sensitive, unlike
     * the tokens of {@code Connection} and {@code Upgrade}.
     */
    public static boolean offersSubprotocol(List<String> fields, String subprotocol) {
        return listed(fields, subprotocol, false);
    }

    /** Whether a comma-separated list, over one or more fields, holds the token. */
    private static boolean listed(List<String> values, String token, boolean ignoreCase) {
        for (String value : values) {
            int start = 0;
            while (start <= value.length()) {
                int comma = value.indexOf(',', start);
                int end = comma < 0 ? value.length() : comma;
                String item = value.substring(start, end).trim();
                if (ignoreCase ? item.equalsIgnoreCase(token) : item.equals(token)) {
                    return true;
                }
                start = end + 1;
            }
        }
        return false;
    }

    /** Substring search ignoring ASCII case only, as header values are bytes, not text. */
    static boolean containsIgnoreAsciiCase(String value, String lowerCaseNeedle) {
        int last = value.length() - lowerCaseNeedle.length();
        for (int i = 0; i <= last; i++) {
            int j = 0;
            while (j < lowerCaseNeedle.length() && lower(value.charAt(i + j)) == lowerCaseNeedle.charAt(j)) {
                j++;
            }
            if (j == lowerCaseNeedle.length()) {
                return true;
            }
        }
        return false;
    }

    private static char lower(char c) {
        return c >= 'A' && c <= 'Z' ? (char) (c + 32) : c;
    }
}
