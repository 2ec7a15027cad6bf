package org.nettyrack.netty.http2;

import io.netty.channel.Channel;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http2.HttpConversionUtil.ExtensionHeaderNames;
import io.netty.util.AttributeKey;

/**
 * Cleans the request head that {@link Http2StreamCodec} made of a stream's HEADERS: removes what
 * the conversion to HTTP/1.1 objects added and no client sent ({@code x-http2-stream-id},
 * {@code x-http2-scheme}, {@code x-http2-path}, a {@code transfer-encoding: chunked} for a
 * body of unknown length), so the application sees the client's own header fields, as on
 * HTTP/1.1. {@code :authority} has become {@code host} already.
 *
 * <p>An extended CONNECT (RFC 8441: {@code :method CONNECT} with {@code :protocol}, which this
 * server allows with {@code SETTINGS_ENABLE_CONNECT_PROTOCOL}) keeps its {@code :protocol} as
 * the stream channel's {@link #CONNECT_PROTOCOL}, and its {@code :path} as the target (the
 * conversion takes a CONNECT's target from {@code :authority}, as a classic CONNECT has no path).
 */
public final class Http2Request {
    /** The {@code :protocol} of the stream's extended CONNECT, if it is one. */
    public static final AttributeKey<String> CONNECT_PROTOCOL = AttributeKey.valueOf("nettyrack.connect-protocol");

    private Http2Request() {
    }

    /** Leaves the client's own fields in the head of the request that came on stream. */
    static void clean(Channel stream, HttpRequest request) {
        HttpHeaders headers = request.headers();
        String protocol = headers.get(ExtensionHeaderNames.PROTOCOL.text());
        if (protocol != null && HttpMethod.CONNECT.equals(request.method())) {
            stream.attr(CONNECT_PROTOCOL).set(protocol);
            String path = headers.get(ExtensionHeaderNames.PATH.text());
            if (path != null) {
                request.setUri(path);
            }
        }
        for (ExtensionHeaderNames name : ExtensionHeaderNames.values()) {
            headers.remove(name.text());
        }
        headers.remove(HttpHeaderNames.TRANSFER_ENCODING);
    }
}
