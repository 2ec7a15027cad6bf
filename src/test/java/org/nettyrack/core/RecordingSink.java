package org.nettyrack.core;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A sink that writes down what it was asked ("respond 500 text/plain; charset=utf-8: body",
 * "begin 200", "write x", "end", "abort") and keeps the state rules of the real ones: a begun
 * response commits with its first body bytes; respond, end, abort and upgrade finish it.
 */
final class RecordingSink implements ResponseSink {
    final List<String> calls = new ArrayList<>();
    private boolean begun;
    private boolean committed;
    private boolean finished;

    @Override
    public void respond(int status, ResponseHeaders headers, byte[] body, int offset, int length) {
        if (committed) {
            throw new IllegalStateException("response already started");
        }
        calls.add("respond " + status + " " + headers.get("content-type") + ": "
            + new String(body, offset, length, StandardCharsets.UTF_8));
        committed = true;
        finished = true;
    }

    @Override
    public void begin(int status, ResponseHeaders headers, long contentLength) {
        calls.add("begin " + status);
        begun = true;
    }

    @Override
    public void write(byte[] bytes, int offset, int length) {
        calls.add("write " + new String(bytes, offset, length, StandardCharsets.UTF_8));
        committed = begun && length > 0 || committed;
    }

    @Override
    public void sendFile(Path file, long offset, long length) {
        calls.add("file " + file);
        committed = true;
    }

    @Override
    public void end() {
        calls.add("end");
        committed = true;
        finished = true;
    }

    @Override
    public void abort() {
        if (!finished) {
            calls.add("abort");
            finished = true;
        }
    }

    @Override
    public void upgrade(int status, ResponseHeaders headers, PushEndpoint endpoint) {
        calls.add("upgrade " + status);
        committed = true;
        finished = true;
    }

    @Override
    public boolean committed() {
        return committed;
    }

    @Override
    public boolean finished() {
        return finished;
    }
}
