package org.nettyrack.netty;

import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpRequestDecoder;

/**
 * Netty's request decoder, minus one leniency: a message with both Content-Length and
 * Transfer-Encoding is refused (Netty would drop Content-Length and go on). That pair is the
 * classic request-smuggling vector behind several Puma CVEs; RFC 9112 6.1 lets a server
 * reject it, and behind a proxy rejecting is the only safe choice. The failure surfaces as
 * a decoder result that {@link RequestGuard} answers with 400.
 */
final class StrictRequestDecoder extends HttpRequestDecoder {
    StrictRequestDecoder(HttpDecoderConfig config) {
        super(config);
    }

    @Override
    protected void handleTransferEncodingChunkedWithContentLength(HttpMessage message) {
        throw new IllegalArgumentException("both Content-Length and Transfer-Encoding present");
    }
}
