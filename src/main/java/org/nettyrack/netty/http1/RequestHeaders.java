package org.nettyrack.netty.http1;

import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.DefaultHttpHeadersFactory;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpHeadersFactory;

/**
 * The header map the request decoder fills, with the decoder's usual validation, that refuses
 * a second Content-Length field. Netty refuses one itself on HTTP/1.1 only; on HTTP/1.0 it
 * keeps the first value, so {@code 5} and {@code 3} would frame the body differently here and
 * at a proxy that takes the last (request smuggling). The refusal surfaces as a decoder
 * failure, which {@link RequestGuard} answers with 400.
 */
public final class RequestHeaders extends DefaultHttpHeaders {
    private static final DefaultHttpHeadersFactory DEFAULTS = DefaultHttpHeadersFactory.headersFactory();

    /** For {@link io.netty.handler.codec.http.HttpDecoderConfig#setHeadersFactory}. */
    public static final HttpHeadersFactory FACTORY = new HttpHeadersFactory() {
        @Override
        public HttpHeaders newHeaders() {
            return new RequestHeaders();
        }

        @Override
        public HttpHeaders newEmptyHeaders() {
            return new RequestHeaders();
        }
    };

    private boolean sawContentLength;

    private RequestHeaders() {
        super(DEFAULTS.getNameValidator(), DEFAULTS.getValueValidator());
    }

    @Override
    public HttpHeaders add(CharSequence name, Object value) {
        if (HttpHeaderNames.CONTENT_LENGTH.contentEqualsIgnoreCase(name)) {
            if (sawContentLength) {
                throw new IllegalArgumentException("more than one Content-Length field");
            }
            sawContentLength = true;
        }
        return super.add(name, value);
    }
}
