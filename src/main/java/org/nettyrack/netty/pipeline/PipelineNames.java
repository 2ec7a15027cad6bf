package org.nettyrack.netty.pipeline;

import io.netty.channel.ChannelPipeline;

/**
 * The names of every handler a connection's pipeline may hold, HTTP/1.1's and HTTP/2's (the
 * connection's and each stream's), spelled here only: {@link HttpPipeline} and the handlers
 * that later add, replace or remove one another by name all read them from this leaf, which
 * imports nothing of nettyrack.
 */
public final class PipelineNames {
    public static final String TIMEOUTS = "timeouts";
    public static final String PROXY_DECODER = "proxy-decoder";
    public static final String PROXY = "proxy";
    public static final String PREFACE = "h2-preface";
    public static final String TLS = "tls";
    public static final String ALPN = "alpn";
    public static final String DECODER = "decoder";
    public static final String ENCODER = "encoder";
    /** {@code DateHeader}, on the application's side of the HTTP/1.1 encoder (a stream's codec dates its own responses). */
    public static final String DATE = "date";
    public static final String GUARD = "guard";
    public static final String H2C_UPGRADE = "h2c-upgrade";
    public static final String CONTINUE = "continue";
    /** The {@code BodyCollector}, just before the dispatcher. */
    public static final String BODY = "body";
    public static final String DISPATCHER = "dispatcher";
    /** An HTTP/2 connection's ({@code Http2Support.configure}), after TLS or the timeouts' place. */
    public static final String H2_FLUSH = "h2-flush";
    public static final String H2_ORDER = "h2-order";
    public static final String H2_CODEC = "h2-codec";
    public static final String H2_MUX = "h2-mux";
    public static final String H2_STREAMS = "h2-streams";
    /** Each HTTP/2 stream's, before its guard, expect-continue and dispatcher ({@code Http2Support.streamPipeline}). */
    public static final String H2_STREAM_CODEC = "h2-stream-codec";
    /** Where the stream codec was, once an extended CONNECT made the stream a byte stream. */
    public static final String H2_BYTES = "h2-bytes";
    /** What only an HTTP conversation needs: removed when the connection switches to push. */
    private static final String[] HTTP_ONLY = {TIMEOUTS, GUARD, H2C_UPGRADE, CONTINUE, BODY, DISPATCHER};

    public static final String HIJACKED = "hijacked";

    /**
     * Removes the handlers only HTTP needs (timeouts, guard, h2c upgrade, expect-continue, body collector, dispatcher),
     * leaving the codec for the push conversation: an SSE stream keeps it, a WebSocket
     * handshake replaces it.
     */
    public static void leaveHttp(ChannelPipeline p) {
        for (String name : HTTP_ONLY) {
            if (p.get(name) != null) {
                p.remove(name);
            }
        }
    }

    private PipelineNames() {
    }
}
