package org.nettyrack.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every way a request can fail ends in one answer: a 500 while nothing has left, else a cut. */
class FailureResponseTest {
    private final RecordingSink sink = new RecordingSink();
    private final ByteArrayOutputStream errors = new ByteArrayOutputStream();
    private final ErrorLog errorLog = new ErrorLog(errors);
    private final RackRequest request = new FakeRequest("GET", "/boom", "HTTP/1.1");

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private String log() {
        return errors.toString(StandardCharsets.UTF_8);
    }

    @Test
    void anApplicationErrorBeforeAnythingLeftIsA500() {
        FailureResponse.send(sink, null);
        assertEquals(List.of("respond 500 text/plain; charset=utf-8: Internal Server Error\n"), sink.calls);
    }

    @Test
    void inDevelopmentThe500CarriesTheReport() {
        FailureResponse.send(sink, "RuntimeException: oops\n\tapp.rb:1");
        assertEquals(List.of("respond 500 text/plain; charset=utf-8: Internal Server Error\n\n"
            + "RuntimeException: oops\n\tapp.rb:1"), sink.calls);
    }

    @Test
    void aStreamThatSentNoBytesYetIsReplacedByThe500() {
        sink.begin(200, new ResponseHeaders(), -1);
        sink.write(new byte[0], 0, 0);
        FailureResponse.send(sink, null);
        assertEquals("respond 500 text/plain; charset=utf-8: Internal Server Error\n", sink.calls.get(2));
    }

    @Test
    void onceBytesLeftTheConnectionIsCut() {
        sink.begin(200, new ResponseHeaders(), -1);
        sink.write(utf8("partial"), 0, 7);
        FailureResponse.send(sink, "ignored: the status line is gone");
        assertEquals(List.of("begin 200", "write partial", "abort"), sink.calls);
    }

    @Test
    void aHandlerThatThrowsIsLoggedAndAnswered500() {
        FailureResponse.serve((r, s) -> {
            throw new IllegalStateException("a bug");
        }, request, sink, errorLog);
        assertEquals(List.of("respond 500 text/plain; charset=utf-8: Internal Server Error\n"), sink.calls);
        assertTrue(log().startsWith("nettyrack: internal error serving GET /boom: java.lang.IllegalStateException: a bug"),
            log());
    }

    @Test
    void aHandlerThatThrowsAnErrorMidStreamCutsTheConnection() {
        FailureResponse.serve((r, s) -> {
            s.begin(200, new ResponseHeaders(), -1);
            write(s, "partial");
            throw new StackOverflowError();
        }, request, sink, errorLog);
        assertEquals(List.of("begin 200", "write partial", "abort"), sink.calls);
        assertTrue(log().contains("java.lang.StackOverflowError"), log());
    }

    @Test
    void aHandlerThatFailsAfterItsResponseLeavesItAlone() {
        FailureResponse.serve((r, s) -> {
            s.respond(200, new ResponseHeaders(), utf8("ok"), 0, 2);
            throw new IllegalStateException("after the fact");
        }, request, sink, errorLog);
        assertEquals(List.of("respond 200 null: ok"), sink.calls);
        assertTrue(log().contains("after the fact"));
    }

    @Test
    void aHandlerThatNeverAnswersGets500() {
        FailureResponse.serve((r, s) -> { }, request, sink, errorLog);
        assertEquals(List.of("respond 500 text/plain; charset=utf-8: Internal Server Error\n"), sink.calls);
    }

    @Test
    void aHandlerThatForgetsToEndAStreamHasItEnded() {
        FailureResponse.serve((r, s) -> {
            s.begin(200, new ResponseHeaders(), -1);
            write(s, "x");
        }, request, sink, errorLog);
        assertEquals(List.of("begin 200", "write x", "end"), sink.calls);
        assertEquals("", log(), "not a failure: nothing to log");
    }

    @Test
    void aFinishedResponseIsNotTouched() {
        FailureResponse.serve((r, s) -> s.respond(204, new ResponseHeaders(), new byte[0], 0, 0), request, sink, errorLog);
        assertEquals(List.of("respond 204 null: "), sink.calls);
    }

    @Test
    void everyAnswerToTheApplicationsRunCarriesTheRequestId() {
        List<ResponseHeaders> heads = new java.util.ArrayList<>();
        ResponseSink keeping = new ResponseSink() {
            public void respond(int status, ResponseHeaders headers, byte[] body, int offset, int length) { heads.add(headers); sink.respond(status, headers, body, offset, length); }
            public void begin(int status, ResponseHeaders headers, long contentLength) { heads.add(headers); sink.begin(status, headers, contentLength); }
            public void write(byte[] bytes, int offset, int length) { sink.write(bytes, offset, length); }
            public void sendFile(java.nio.file.Path file, long offset, long length) { }
            public void end() { sink.end(); }
            public void abort() { sink.abort(); }
            public void upgrade(int status, ResponseHeaders headers, PushEndpoint endpoint) { }
            public boolean committed() { return sink.committed(); }
            public boolean finished() { return sink.finished(); }
        };
        FailureResponse.serve((r, s) -> {
            throw new IllegalStateException("a bug");
        }, request, keeping, errorLog);
        assertEquals(request.requestId(), heads.get(0).get("x-request-id"), "the 500 in the application's place too");
    }

    private static void write(ResponseSink s, String text) {
        try {
            s.write(utf8(text), 0, text.length());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
