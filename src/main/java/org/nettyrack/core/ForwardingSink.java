package org.nettyrack.core;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A {@link ResponseSink} that passes every call on to another: the base of sinks that watch
 * or add to an answer on its way (a rollout's status count, the request id), each overriding
 * only the calls it cares about.
 */
public abstract class ForwardingSink implements ResponseSink {
    protected final ResponseSink sink;

    protected ForwardingSink(ResponseSink sink) {
        this.sink = sink;
    }

    @Override
    public void respond(int status, ResponseHeaders headers, byte[] body, int offset, int length) {
        sink.respond(status, headers, body, offset, length);
    }

    @Override
    public void begin(int status, ResponseHeaders headers, long contentLength) {
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
        sink.upgrade(status, headers, endpoint);
    }

    @Override
    public Hijack hijack(int status, ResponseHeaders headers) {
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
