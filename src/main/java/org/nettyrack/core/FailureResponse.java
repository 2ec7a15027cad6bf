package org.nettyrack.core;

import java.nio.charset.StandardCharsets;

/**
 * The one place a failure while serving a request becomes the client's answer: a 500 while
 * nothing of the response has left, a cut connection once something has (the status line is
 * gone; a chunked body then misses its last chunk and a sized one its last bytes, so the
 * client can tell the response is incomplete).
 * <ul>
 * <li>{@link #send}: the bridge, for an application error it has reported to
 * {@code rack.errors} (in development with the report in the body);</li>
 * <li>{@link #serve}: how a transport runs a handler on a worker, so that a failure of the
 * handler itself, or a handler that returns without finishing its response, still ends in
 * an answer and a line in the server's error log, never a connection left waiting. It marks
 * the application's start and return in the request's {@link RequestTimes}, and gives the
 * handler an {@link IdentifiedSink}: every answer to an application's run carries the
 * request's {@code x-request-id}.</li>
 * </ul>
 */
public final class FailureResponse {
    private static final String TEXT = "Internal Server Error\n";
    private static final byte[] BODY = TEXT.getBytes(StandardCharsets.UTF_8);

    private FailureResponse() {
    }

    /**
     * Answers 500 ({@code text/plain; charset=utf-8}, "Internal Server Error", then
     * {@code detail} when not null) unless the response is committed; then aborts it.
     */
    public static void send(ResponseSink sink, String detail) {
        if (sink.committed()) {
            sink.abort();
            return;
        }
        ResponseHeaders headers = new ResponseHeaders();
        headers.add("content-type", "text/plain; charset=utf-8");
        byte[] body = detail == null ? BODY : (TEXT + "\n" + detail).getBytes(StandardCharsets.UTF_8);
        sink.respond(500, headers, body, 0, body.length);
    }

    /**
     * Runs the handler on the calling worker thread and makes sure the response ends: a
     * handler that throws is logged and answered as by {@link #send}; one that returns leaving
     * its response open has a committed one ended, and an uncommitted one answered 500.
     */
    public static void serve(RackHandler handler, RackRequest request, ResponseSink transport, ErrorLog errorLog) {
        ResponseSink sink = new IdentifiedSink(transport, request.requestId());
        boolean failed = true;
        RequestTimes times = request.times();
        times.started();
        try {
            handler.handle(request, sink);
            failed = false;
        } catch (RuntimeException | Error e) {
            errorLog.report("internal error serving " + request.method() + " " + request.target(), e);
        } finally {
            times.returned();
            if (!sink.finished()) {
                if (!failed && sink.committed()) {
                    sink.end();
                } else {
                    send(sink, null);
                }
            }
        }
    }
}
