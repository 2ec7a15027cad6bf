package org.nettyrack.netty.response;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.HttpResponseEncoder;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http2.Http2FrameStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.nettyrack.core.HttpDate;
import org.nettyrack.core.RackHandler;
import org.nettyrack.core.ResponseHeaders;
import org.nettyrack.core.config.ServerConfig;
import org.nettyrack.netty.H2Client;
import org.nettyrack.netty.PipelineHarness;

/** Every final response leaves with one Date (RFC 9110 6.6.1): the application's, or the server's. */
class DateHeaderTest {
    private static final long NOV_6_1994 = 784111777_000L;

    private final AtomicLong clock = new AtomicLong(NOV_6_1994);

    private String encoded(int status, String... headers) {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpResponseEncoder(), new DateHeader(new HttpDate(clock::get)));
        DefaultFullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.valueOf(status));
        for (int i = 0; i < headers.length; i += 2) {
            response.headers().add(headers[i], headers[i + 1]);
        }
        ch.writeOutbound(response);
        ByteBuf out = ch.readOutbound();
        try {
            return out.toString(StandardCharsets.US_ASCII);
        } finally {
            out.release();
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(ints = {200, 204, 301, 304, 404, 413, 500, 503})
    void aFinalResponseGetsTheServersDate(int status) {
        assertTrue(encoded(status).contains("\r\ndate: Sun, 06 Nov 1994 08:49:37 GMT\r\n"), String.valueOf(status));
    }

    @Test
    void theDateFollowsTheClock() {
        encoded(200);
        clock.addAndGet(61_000);
        assertTrue(encoded(200).contains("\r\ndate: Sun, 06 Nov 1994 08:50:38 GMT\r\n"));
    }

    @Test
    void theApplicationsOwnDateStaysAndIsTheOnlyOne() {
        String out = encoded(200, "Date", "Tue, 15 Nov 1994 08:12:31 GMT");
        assertTrue(out.contains("Date: Tue, 15 Nov 1994 08:12:31 GMT\r\n"), out);
        assertEquals(1, out.toLowerCase(Locale.ROOT).split("\r\ndate:", -1).length - 1, out);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(ints = {100, 101, 103})
    void informationalResponsesGoAsTheyAre(int status) {
        assertFalse(encoded(status).contains("date:"));
    }

    @Test
    void theApplicationsResponsesAndTheServersOwnAnswersAreDated() {
        RackHandler app = (request, sink) -> {
            ResponseHeaders headers = new ResponseHeaders();
            headers.add("content-type", "text/plain");
            sink.respond(200, headers, new byte[] {'o', 'k'}, 0, 2);
        };
        PipelineHarness h = new PipelineHarness(ServerConfig.builder().maxBodySize(10).build(), app, task -> {
            task.run();
            return true;
        });
        String ok = h.exchange("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
        assertEquals(1, PipelineHarness.dateLines(ok), ok);
        String tooLarge = h.exchange("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 11\r\n\r\n");
        assertTrue(tooLarge.startsWith("HTTP/1.1 413"), tooLarge);
        assertEquals(1, PipelineHarness.dateLines(tooLarge), tooLarge);
    }

    @Test
    void theEncodedAnswersSpellTheLineOut() {
        ByteBuf timeout = ErrorResponses.encoded(HttpResponseStatus.REQUEST_TIMEOUT);
        try {
            String text = timeout.toString(StandardCharsets.US_ASCII);
            assertEquals(1, PipelineHarness.dateLines(text), text);
            assertTrue(text.contains("\r\n\r\n"), text);
        } finally {
            timeout.release();
        }
        String end = new String(DateHeader.INSTANCE.current().endOfHead(), StandardCharsets.US_ASCII);
        assertTrue(PipelineHarness.DATE_LINE.matcher(end).lookingAt(), end);
        assertTrue(end.endsWith("GMT\r\n\r\n"), end);
    }

    @Test
    void anHttp2StreamsResponseIsDated() {
        RackHandler app = (request, sink) -> sink.respond(200, new ResponseHeaders(), new byte[0], 0, 0);
        PipelineHarness server = new PipelineHarness(ServerConfig.builder().build(), app, task -> {
            task.run();
            return true;
        });
        H2Client client = new H2Client(server.channel);
        Http2FrameStream stream = client.send(H2Client.get("/"), true);
        CharSequence date = client.response(stream).headers.get("date");
        assertNotNull(date);
        assertTrue(PipelineHarness.DATE_LINE.matcher("date: " + date + "\r\n").matches(), date.toString());
    }
}
