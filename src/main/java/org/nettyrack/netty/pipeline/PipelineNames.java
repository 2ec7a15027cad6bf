package org.nettyrack.netty.pipeline;

import io.netty.channel.ChannelPipeline;
import java.util.List;

/**
 * The name of every handler a connection's pipeline may hold, HTTP/1.1's, HTTP/2's (the
 * connection's and each stream's), TLS's, push's and a hijack's, and the lists of them that
 * leave together: spelled here only. The builders and the handlers that later add, replace or
 * remove one another by name read them from this leaf. Where each sits: docs/architecture.md.
 */
public final class PipelineNames {
    public static final String TIMEOUTS = "timeouts";
    public static final String PROXY_DECODER = "proxy-decoder";
    public static final String PROXY = "proxy";
    public static final String PREFACE = "h2-preface";
    /** The TLS sniffer, until the first bytes are read. */
    public static final String TLS = "tls";
    /** The {@code SslHandler} the sniffer puts in its place. */
    public static final String SSL = "ssl";
    public static final String ALPN = "alpn";
    public static final String DECODER = "decoder";
    public static final String ENCODER = "encoder";
    /** Netty's chunked writer, added behind the encoder the first time a file goes out over TLS or HTTP/2. */
    public static final String CHUNKED_WRITER = "chunked-writer";
    /** {@code DateHeader}, on the application's side of the HTTP/1.1 encoder (a stream's codec dates its own responses). */
    public static final String DATE = "date";
    public static final String GUARD = "guard";
    public static final String H2C_UPGRADE = "h2c-upgrade";
    public static final String CONTINUE = "continue";
    /** The {@code BodyCollector}, just before the dispatcher. */
    public static final String BODY = "body";
    public static final String DISPATCHER = "dispatcher";
    /** An HTTP/2 connection's, after TLS or the timeouts' place. */
    public static final String H2_FLUSH = "h2-flush";
    public static final String H2_ORDER = "h2-order";
    public static final String H2_CODEC = "h2-codec";
    public static final String H2_MUX = "h2-mux";
    /** {@code Http2WindowsAfterSettings}: the WINDOW_UPDATEs a SETTINGS ACK leaves owed. */
    public static final String H2_WINDOWS = "h2-windows";
    public static final String H2_STREAMS = "h2-streams";
    /** Each HTTP/2 stream's, before its guard, expect-continue and the request stage. */
    public static final String H2_STREAM_CODEC = "h2-stream-codec";
    /** Where the stream codec was, once an extended CONNECT made the stream a byte stream. */
    public static final String H2_BYTES = "h2-bytes";
    /** WebSocket frames: Netty's handshaker names its encoder and decoder so; the others follow them. */
    public static final String WS_ENCODER = "wsencoder";
    public static final String WS_DECODER = "wsdecoder";
    public static final String WS_DEFLATE_DECODER = "wsdeflate-decoder";
    public static final String WS_DEFLATE_ENCODER = "wsdeflate-encoder";
    public static final String WS_UTF8 = "wsutf8";
    public static final String WS_AGGREGATOR = "wsaggregator";
    /** A push connection's idle timer and its handler, last. */
    public static final String PUSH_IDLE = "push-idle";
    public static final String PUSH = "push";
    /** A hijacked connection's pump, last. */
    public static final String HIJACKED = "hijacked";

    /** What only an HTTP conversation needs: gone when the connection switches to push; the codec stays. */
    private static final List<String> HTTP_ONLY = List.of(TIMEOUTS, GUARD, H2C_UPGRADE, CONTINUE, BODY, DISPATCHER);
    /** What only HTTP/1.1 needs: gone once a connection speaks h2. */
    private static final List<String> HTTP1_ONLY = List.of(TIMEOUTS, DECODER, ENCODER, DATE, GUARD, CONTINUE, BODY,
        DISPATCHER);
    /** HTTP/1.1's way out: gone when a hijacked connection's bytes are the application's. */
    private static final List<String> HTTP1_WRITERS = List.of(DATE, ENCODER);

    private PipelineNames() {
    }

    /**
     * Removes the handlers only HTTP needs (timeouts, guard, h2c upgrade, expect-continue, body
     * collector, dispatcher), leaving the codec for the push conversation: an SSE stream keeps
     * it, a WebSocket handshake replaces it.
     */
    public static void leaveHttp(ChannelPipeline p) {
        remove(p, HTTP_ONLY);
    }

    /** Removes the HTTP/1.1 handlers of a connection that speaks h2 from its next byte on. */
    public static void leaveHttp1(ChannelPipeline p) {
        remove(p, HTTP1_ONLY);
    }

    /** Removes HTTP/1.1's response encoder and date stamp, for a hijack. */
    public static void dropHttp1Writers(ChannelPipeline p) {
        remove(p, HTTP1_WRITERS);
    }

    private static void remove(ChannelPipeline p, List<String> names) {
        for (String name : names) {
            if (p.get(name) != null) {
                p.remove(name);
            }
        }
    }
}
