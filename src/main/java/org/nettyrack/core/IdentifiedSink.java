package org.nettyrack.core;

/**
 * The sink an application's run writes to ({@link FailureResponse#serve} puts it in front of
 * the transport's): passes everything on, with the request's {@code x-request-id}
 * ({@link RequestId#answer}) added to each head the application (or a 500 in its place) gives,
 * a 101 and a hijacker's head included, unless the application set that header itself.
 * A 103 Early Hints goes as the application gave it. Answers given without the application
 * (public files, refusals) do not pass here.
 */
final class IdentifiedSink extends ForwardingSink {
    private final String id;

    IdentifiedSink(ResponseSink sink, String id) {
        super(sink);
        this.id = id;
    }

    @Override
    public void respond(int status, ResponseHeaders headers, byte[] body, int offset, int length) {
        RequestId.answer(headers, id);
        sink.respond(status, headers, body, offset, length);
    }

    @Override
    public void begin(int status, ResponseHeaders headers, long contentLength) {
        RequestId.answer(headers, id);
        sink.begin(status, headers, contentLength);
    }

    @Override
    public void upgrade(int status, ResponseHeaders headers, PushEndpoint endpoint) {
        RequestId.answer(headers, id);
        sink.upgrade(status, headers, endpoint);
    }

    @Override
    public Hijack hijack(int status, ResponseHeaders headers) {
        if (headers != null) { // a full hijack's head is the application's to write
            RequestId.answer(headers, id);
        }
        return sink.hijack(status, headers);
    }
}
