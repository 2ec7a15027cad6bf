package org.nettyrack.netty.push;

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
 * here costs plain requests nothing.
 *
 * <p>Sizes: the message limit ({@code --max-message-size}) counts decompressed bytes, fragments
 * joined. A compressed frame may be larger than the message it carries (incompressible data
 * grows a little), so frames are allowed up to {@link #maxCompressedFrame}; the decompressor
 * stops one frame at {@link #maxInflatedFrame}; the aggregator and {@link PushHandler} refuse
 * a message over the limit with 1009.
 */
final class WebSocketDeflate {
    private static final int COMPRESSION_LEVEL = 6;
    private static final int MAX_WINDOW_BITS = 15;
    /** A sync flush's empty stored block, of which the sender strips all but a few bits. */
    private static final int SYNC_FLUSH = 5;
    /**
     * Netty's ZlibDecoder gives up when its buffer is at its maximum and has less free space than
     * the output it prepares for next (512 bytes once a frame's input is used up), even when no
     * more output is coming: without room above the limit, a message at the limit is refused.
     */
    private static final int INFLATE_HEADROOM = 8 * 1024;

    private WebSocketDeflate() {
    }

    /** The accepted extension for a Sec-WebSocket-Extensions header, or null. */
    static WebSocketServerExtension negotiate(String offers, int maxMessageSize) {
        if (offers == null || offers.isBlank()) {
            return null;
        }
        PerMessageDeflateServerExtensionHandshaker handshaker = new PerMessageDeflateServerExtensionHandshaker(
            COMPRESSION_LEVEL, true, MAX_WINDOW_BITS, true, false, maxInflatedFrame(maxMessageSize));
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

    /**
     * The largest compressed frame accepted: what a message of {@code maxMessageSize} bytes can
     * become when deflated. That is zlib's deflateBound for any settings (fixed-Huffman blocks,
     * about 13% over; the tight 0.03% bound holds only for zlib's default memLevel, and Python's
     * websockets compresses with memLevel 5, 0.25% over for random bytes), plus the flush that
     * ends each message.
     */
    static int maxCompressedFrame(int maxMessageSize) {
        long n = maxMessageSize;
        return (int) Math.min(Integer.MAX_VALUE, n + (n >> 3) + (n >> 8) + (n >> 9) + 4 + SYNC_FLUSH);
    }

    /** Decompressed bytes one frame may produce before the decoder refuses it (a deflate bomb). */
    static int maxInflatedFrame(int maxMessageSize) {
        return (int) Math.min(Integer.MAX_VALUE, (long) maxMessageSize + INFLATE_HEADROOM);
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
