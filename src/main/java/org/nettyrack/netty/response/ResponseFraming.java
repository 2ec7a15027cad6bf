package org.nettyrack.netty.response;

import io.netty.handler.codec.http.DefaultHttpHeadersFactory;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpHeadersFactory;
import java.util.Locale;
import org.nettyrack.core.ResponseHeaders;
import org.nettyrack.core.ResponseSink;

/**
 * The framing of one response, decided from the request and the application's status and
 * headers, as the HTTP/1.1 head the response sink writes (on an HTTP/2 stream its codec makes
 * frames of that head, and drops what HTTP/2 does not carry); it writes nothing. The framing headers are this class's: the
 * application's {@code transfer-encoding} and {@code content-length} are dropped, and the
 * length is stated here. A body may follow unless the request is HEAD or the status is 1xx,
 * 204 or 304; its end is known by Content-Length when the length is known, by chunks when not,
 * and by the connection's close for an HTTP/1.0 client. The connection stays open when the
 * request allows it, unless the application said {@code connection: close} or the body is
 * close-delimited. Netty's keep-alive handler cannot tell a HEAD or a 304 from a
 * close-delimited body, which is why this is decided here.
 */
public final class ResponseFraming {
    private static final HttpHeadersFactory HEADERS = DefaultHttpHeadersFactory.headersFactory().withValidation(false);

    private final HttpHeaders headers = HEADERS.newHeaders();
    private final ResponseHeaders app;
    private final boolean http11;
    private final boolean headRequest;
    private final boolean bodiless;
    private final String declared;
    private boolean keepAlive;

    /**
     * @param http11 whether the request is HTTP/1.1 (else 1.0)
     * @param headRequest whether the request is HEAD
     * @param stays whether the request lets the connection stay open (and the server is not draining)
     */
    public ResponseFraming(boolean http11, boolean headRequest, boolean stays, int status, ResponseHeaders app) {
        this.app = app;
        this.http11 = http11;
        this.headRequest = headRequest;
        this.bodiless = ResponseSink.bodiless(status);
        this.keepAlive = stays;
        String length = null;
        for (int i = 0; i < app.size(); i++) {
            String name = app.name(i);
            if (name.equalsIgnoreCase("connection")) {
                keepAlive &= !app.value(i).toLowerCase(Locale.ROOT).contains("close");
            } else if (name.equalsIgnoreCase("content-length")) {
                length = length == null ? app.value(i) : length;
            } else if (!name.equalsIgnoreCase("transfer-encoding")) {
                headers.add(name, app.value(i));
            }
        }
        declared = length;
        if (headRequest && !bodiless && length != null) {
            headers.set(HttpHeaderNames.CONTENT_LENGTH, length); // what a GET would have been told
        }
    }

    /** Whether body bytes may follow the head. */
    public boolean bodyAllowed() {
        return !bodiless && !headRequest;
    }

    /** Whether the connection stays open after this response; final once the length was stated. */
    public boolean keepAlive() {
        return keepAlive;
    }

    /**
     * States a body of exactly {@code length} bytes (the whole response at once); a HEAD
     * answer without the application's own Content-Length gets this one.
     */
    public HttpHeaders whole(long length) {
        if (bodyAllowed() || (headRequest && !bodiless && declared == null)) {
            headers.set(HttpHeaderNames.CONTENT_LENGTH, length);
        }
        return settled();
    }

    /**
     * States a body streamed after the head: {@code contentLength} long unless the application
     * declared its own, chunked when neither is known (the connection's close for HTTP/1.0).
     * Returns the length stated, or -1.
     */
    public long streamed(long contentLength) {
        long length = declared != null ? app.contentLength() : contentLength;
        if (bodyAllowed()) {
            if (length >= 0) {
                headers.set(HttpHeaderNames.CONTENT_LENGTH, length);
            } else if (http11) {
                headers.set(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED);
            } else {
                keepAlive = false;
            }
        } else if (headRequest && !bodiless && length >= 0) {
            headers.set(HttpHeaderNames.CONTENT_LENGTH, length);
        }
        return length;
    }

    /** The head's headers, with {@code connection} as keep-alive was settled. */
    public HttpHeaders settled() {
        if (!keepAlive) {
            headers.set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        } else if (!http11) {
            headers.set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
        }
        return headers;
    }
}
