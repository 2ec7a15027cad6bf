package org.nettyrack.netty.exchange;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nettyrack.core.RackHandler;
import org.nettyrack.core.ResponseHeaders;
import org.nettyrack.core.ResponseSink;
import org.nettyrack.netty.PipelineHarness;

/** Framing and keep-alive decisions, seen as the bytes a client receives. */
class NettyResponseSinkTest {
    private static final String GET = "GET / HTTP/1.1\r\nHost: x\r\n\r\n";

    private static ResponseHeaders headers(String... pairs) {
        ResponseHeaders h = new ResponseHeaders();
        for (int i = 0; i < pairs.length; i += 2) {
            h.add(pairs[i], pairs[i + 1]);
        }
        return h;
    }

    private static void write(ResponseSink sink, String text) {
        byte[] b = text.getBytes(StandardCharsets.US_ASCII);
        try {
            sink.write(b, 0, b.length);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static RackHandler streaming(int status, ResponseHeaders headers, String... chunks) {
        return (request, sink) -> {
            sink.begin(status, headers, -1);
            for (String c : chunks) {
                write(sink, c);
            }
            sink.end();
        };
    }

    @Test
    void wholeResponsesGetContentLength() {
        RackHandler app = (request, sink) -> sink.respond(200, headers("x-a", "1", "set-cookie", "a=1", "set-cookie", "b=2"),
            "hello".getBytes(StandardCharsets.US_ASCII), 0, 5);
        String out = new PipelineHarness(app).exchange(GET);
        assertTrue(out.startsWith("HTTP/1.1 200 OK\r\n"), out);
        assertTrue(out.contains("content-length: 5\r\n") && out.endsWith("\r\n\r\nhello"), out);
        assertTrue(out.contains("set-cookie: a=1\r\nset-cookie: b=2\r\n"), out);
    }

    @Test
    void streamsOfUnknownLengthAreChunked() {
        String out = new PipelineHarness(streaming(200, headers("content-type", "text/plain"), "ab", "cde")).exchange(GET);
        assertTrue(out.contains("transfer-encoding: chunked"), out);
        assertTrue(out.endsWith("\r\n\r\n2\r\nab\r\n3\r\ncde\r\n0\r\n\r\n"), out);
    }

    @Test
    void streamsWithADeclaredLengthAreNotChunked() {
        PipelineHarness h = new PipelineHarness(streaming(200, headers("content-length", "5"), "ab", "cde"));
        String out = h.exchange(GET);
        assertFalse(out.contains("chunked"), out);
        assertTrue(PipelineHarness.undated(out).endsWith("content-length: 5\r\n\r\nabcde"), out);
        assertTrue(h.channel.isOpen());
    }

    @Test
    void aBodyShorterThanItsContentLengthClosesTheConnection() {
        PipelineHarness h = new PipelineHarness(streaming(200, headers("content-length", "10"), "abc"));
        h.exchange(GET);
        assertFalse(h.channel.isOpen());
    }

    @Test
    void appSuppliedTransferEncodingIsReplaced() {
        String out = new PipelineHarness(streaming(200, headers("transfer-encoding", "gzip"), "x")).exchange(GET);
        assertFalse(out.contains("gzip"), out);
    }

    @Test
    void headResponsesCarryNoBody() {
        RackHandler app = (request, sink) -> sink.respond(200, headers(), "hello".getBytes(StandardCharsets.US_ASCII), 0, 5);
        PipelineHarness h = new PipelineHarness(app);
        String out = h.exchange("HEAD / HTTP/1.1\r\nHost: x\r\n\r\n");
        assertTrue(PipelineHarness.undated(out).endsWith("content-length: 5\r\n\r\n"), out);
        assertTrue(h.channel.isOpen());
        String streamed = new PipelineHarness(streaming(200, headers(), "hello")).exchange("HEAD / HTTP/1.1\r\nHost: x\r\n\r\n");
        assertFalse(streamed.contains("hello") || streamed.contains("chunked"), streamed);
    }

    @Test
    void notModifiedAndNoContentCarryNoBodyAndKeepAlive() {
        for (int status : new int[] {204, 304}) {
            PipelineHarness h = new PipelineHarness(streaming(status, headers(), "ignored"));
            String out = h.exchange(GET);
            assertFalse(out.contains("ignored") || out.contains("chunked"), out);
            assertTrue(h.channel.isOpen(), status + " keeps the connection");
        }
    }

    @Test
    void http10ClientsGetCloseDelimitedStreams() {
        PipelineHarness h = new PipelineHarness(streaming(200, headers(), "ab", "cd"));
        String out = h.exchange("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n");
        assertTrue(out.contains("connection: close") && out.endsWith("\r\n\r\nabcd"), out);
        assertFalse(h.channel.isOpen());
    }

    @Test
    void theAppCanAskToClose() {
        RackHandler app = (request, sink) -> sink.respond(200, headers("connection", "close"), new byte[0], 0, 0);
        PipelineHarness h = new PipelineHarness(app);
        assertTrue(h.exchange(GET).contains("connection: close"));
        assertFalse(h.channel.isOpen());
    }

    @Test
    void anAppThatNeverAnswersGets500() {
        String out = new PipelineHarness((request, sink) -> { }).exchange(GET);
        assertEquals("HTTP/1.1 500 Internal Server Error", PipelineHarness.statusLine(out));
    }

    @Test
    void aStreamedHeadWaitsForTheFirstBodyBytes() {
        boolean[] committed = new boolean[3];
        RackHandler app = (request, sink) -> {
            sink.begin(200, headers("content-type", "text/plain"), -1);
            committed[0] = sink.committed();
            write(sink, "");
            committed[1] = sink.committed();
            write(sink, "x");
            committed[2] = sink.committed();
            sink.end();
        };
        assertTrue(new PipelineHarness(app).exchange(GET).endsWith("1\r\nx\r\n0\r\n\r\n"));
        assertEquals("[false, false, true]", java.util.Arrays.toString(committed));
    }

    @Test
    void aStreamThatFailsBeforeItsFirstByteCanStillBeAnError() {
        RackHandler app = (request, sink) -> {
            sink.begin(200, headers("content-type", "text/plain", "x-app", "1"), -1);
            sink.respond(500, headers("content-type", "text/plain"), "oops".getBytes(StandardCharsets.US_ASCII), 0, 4);
        };
        PipelineHarness h = new PipelineHarness(app);
        String out = h.exchange(GET);
        assertEquals("HTTP/1.1 500 Internal Server Error", PipelineHarness.statusLine(out));
        assertFalse(out.contains("x-app") || out.contains("200 OK"), out);
        assertTrue(PipelineHarness.undated(out).endsWith("content-length: 4\r\n\r\noops"), out);
        assertTrue(h.channel.isOpen());
    }

    @Test
    void aHeadResponseIsSentAtItsEnd() {
        RackHandler app = (request, sink) -> {
            sink.begin(200, headers("content-length", "42"), -1);
            write(sink, "never");
            sink.end();
        };
        PipelineHarness h = new PipelineHarness(app);
        String out = h.exchange("HEAD / HTTP/1.1\r\nHost: x\r\n\r\n");
        assertTrue(out.startsWith("HTTP/1.1 200 OK") && PipelineHarness.undated(out).endsWith("content-length: 42\r\n\r\n"), out);
        assertTrue(h.channel.isOpen());
    }

    @Test
    void anAppThatForgetsToEndIsEnded() {
        RackHandler app = (request, sink) -> {
            sink.begin(200, headers(), -1);
            write(sink, "x");
        };
        assertTrue(new PipelineHarness(app).exchange(GET).endsWith("1\r\nx\r\n0\r\n\r\n"));
    }

    @Test
    void filesAreSentAsFileRegions(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("f.txt"), "0123456789");
        RackHandler app = (request, sink) -> {
            sink.begin(200, headers(), 10);
            try {
                sink.sendFile(file, 0, 10);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            sink.end();
        };
        String out = new PipelineHarness(app).exchange(GET);
        assertTrue(out.contains("content-length: 10") && out.endsWith("[file 10 bytes]"), out);
    }
}
