package org.nettyrack.core;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The sink an application's run writes to ({@link FailureResponse#serve} puts it in front of
 * the transport's): passes everything on, with the request's {@code x-request-id}
 * ({@link RequestId#answer}) added to each head the application (or a 500 in its place) gives,
 * a 101 and a hijacker's head included, unless the application set that header itself.
 * A 103 Early Hints goes as the application gave it. Answers given without the application
 * (public files, refusals) do not pass here.
 */
final class IdentifiedSink implements ResponseSink {
    private final ResponseSink sink;
    private final String id;

    IdentifiedSink(ResponseSink sink, String id) {
        this.sink = sink;
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
    public void write(byte[] bytes, int offset, int length) throws IOException {
        sink.write(bytes, offset, length);
    }

    @Override
    public void sendFile(Path file, long offset, long length) throws IOException {
        sink.sendFile(file, offset, length);
    }

    @Override
    public boolean honoursSendfile() {
        return sink.honoursSendfile();
    }

    @Override
    public boolean acceptsEarlyHints() {
        return sink.acceptsEarlyHints();
    }

    @Override
    public void earlyHints(ResponseHeaders headers) throws IOException {
        sink.earlyHints(headers);
    }

    @Override
    public void end() {
        sink.end();
    }

    @Override
    public void abort() {
        sink.abort();
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

    @Override
    public boolean committed() {
        return sink.committed();
    }

    @Override
    public boolean finished() {
        return sink.finished();
    }
}
