package org.nettyrack.core.reload;

import java.io.IOException;
import java.nio.file.Path;
import org.nettyrack.core.Hijack;
import org.nettyrack.core.PushEndpoint;
import org.nettyrack.core.ResponseHeaders;
import org.nettyrack.core.ResponseSink;

/**
 * A request's sink during a rollout: passes everything on and keeps the status the answer
 * went out with (0 while none did), so the {@link Rollout} can count the new code's 5xx
 * answers against the old code's.
 */
final class ObservedSink implements ResponseSink {
    private final ResponseSink sink;
    private int status;

    ObservedSink(ResponseSink sink) {
        this.sink = sink;
    }

    /** The final answer's status; 0 when the handler gave none. */
    int status() {
        return status;
    }

    @Override
    public void respond(int status, ResponseHeaders headers, byte[] body, int offset, int length) {
        this.status = status;
        sink.respond(status, headers, body, offset, length);
    }

    @Override
    public void begin(int status, ResponseHeaders headers, long contentLength) {
        this.status = status;
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
        this.status = status;
        sink.upgrade(status, headers, endpoint);
    }

    @Override
    public Hijack hijack(int status, ResponseHeaders headers) {
        this.status = status;
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
