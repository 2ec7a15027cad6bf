package org.nettyrack.core.reload;

import org.nettyrack.core.ForwardingSink;
import org.nettyrack.core.Hijack;
import org.nettyrack.core.PushEndpoint;
import org.nettyrack.core.ResponseHeaders;
import org.nettyrack.core.ResponseSink;

/**
 * A request's sink during a rollout: passes everything on and keeps the status the answer
 * went out with (0 while none did), so the {@link Rollout} can count the new code's 5xx
 * answers against the old code's.
 */
final class ObservedSink extends ForwardingSink {
    private int status;

    ObservedSink(ResponseSink sink) {
        super(sink);
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
    public void upgrade(int status, ResponseHeaders headers, PushEndpoint endpoint) {
        this.status = status;
        sink.upgrade(status, headers, endpoint);
    }

    @Override
    public Hijack hijack(int status, ResponseHeaders headers) {
        this.status = status;
        return sink.hijack(status, headers);
    }
}
