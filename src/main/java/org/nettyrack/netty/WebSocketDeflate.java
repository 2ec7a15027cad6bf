package org.nettyrack.netty;

import io.netty.handler.codec.http.websocketx.extensions.WebSocketExtensionData;
import io.netty.handler.codec.http.websocketx.extensions.WebSocketExtensionUtil;
import io.netty.handler.codec.http.websocketx.extensions.WebSocketServerExtension;
import io.netty.handler.codec.http.websocketx.extensions.compression.PerMessageDeflateServerExtensionHandshaker;
import java.util.Map;

/**
 * permessage-deflate (RFC 7692) negotiation at upgrade time, with Netty's handshaker: the
 * first offer it can serve wins; offers with parameters it cannot serve (or malformed ones)
 * are declined, and with none left the connection goes uncompressed. Netty's own extension
 * handler would have to see every HTTP request of every connection to do this; negotiating
 * here costs plain requests nothing. Decompressed messages are capped at the message limit.
 */
final class WebSocketDeflate {
    private static final int COMPRESSION_LEVEL = 6;
    private static final int MAX_WINDOW_BITS = 15;

    private WebSocketDeflate() {
    }

    /** The accepted extension for a Sec-WebSocket-Extensions header, or null. */
    static WebSocketServerExtension negotiate(String offers, int maxMessageSize) {
        if (offers == null || offers.isBlank()) {
            return null;
        }
        PerMessageDeflateServerExtensionHandshaker handshaker = new PerMessageDeflateServerExtensionHandshaker(
            COMPRESSION_LEVEL, true, MAX_WINDOW_BITS, true, false, maxMessageSize);
        try {
            for (WebSocketExtensionData offer : WebSocketExtensionUtil.extractExtensions(offers)) {
                try {
                    WebSocketServerExtension accepted = handshaker.handshakeExtension(offer);
                    if (accepted != null) {
                        return accepted;
                    }
                } catch (RuntimeException malformed) {
                    // e.g. client_max_window_bits=abc: decline this offer, try the next
                }
            }
        } catch (RuntimeException malformed) {
            return null;
        }
        return null;
    }

    /** The Sec-WebSocket-Extensions response value for an accepted extension. */
    static String responseHeader(WebSocketServerExtension extension) {
        WebSocketExtensionData data = extension.newReponseData();
        StringBuilder sb = new StringBuilder(data.name());
        for (Map.Entry<String, String> p : data.parameters().entrySet()) {
            sb.append("; ").append(p.getKey());
            if (p.getValue() != null) {
                sb.append('=').append(p.getValue());
            }
        }
        return sb.toString();
    }
}
