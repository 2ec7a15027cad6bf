package org.nettyrack.netty.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nettyrack.core.RackHandler;
import org.nettyrack.core.ResponseHeaders;
import org.nettyrack.core.config.ServerConfig;
import org.nettyrack.core.files.CacheRules;
import org.nettyrack.core.files.FileOptions;
import org.nettyrack.netty.PipelineHarness;

/**
 * {@code --public} through the real pipeline: a small file's usual answer comes from its
 * encoded bytes and is byte for byte what the general path answers; conditions, ranges,
 * HTTP/1.0, {@code connection: close} and a changed file still get theirs.
 */
class PublicFilesTest {
    private static final RackHandler APP = (request, sink) -> {
        byte[] body = "app".getBytes(StandardCharsets.US_ASCII);
        sink.respond(200, new ResponseHeaders(), body, 0, body.length);
    };
    private static final String GET = "GET /page.html HTTP/1.1\r\nhost: x\r\n\r\n";

    @TempDir
    Path dir;

    private PipelineHarness harness(long fileCacheMillis) {
        ServerConfig config = ServerConfig.builder()
            .files(new FileOptions(dir, false, new CacheRules(java.util.List.of(new CacheRules.Rule("/", "public, max-age=60"))), false))
            .fileCacheMillis(fileCacheMillis).build();
        return new PipelineHarness(config, APP, task -> {
            task.run();
            return true;
        });
    }

    private static String dateLine(String response) {
        java.util.regex.Matcher date = PipelineHarness.DATE_LINE.matcher(response);
        assertTrue(date.find(), response);
        return date.group();
    }

    private void page(String text) throws Exception {
        Files.writeString(dir.resolve("page.html"), text);
    }

    @Test
    void theUsualAnswerIsWhatTheGeneralPathWrites() throws Exception {
        page("<p>hello</p>\n");
        String general = harness(0).exchange(GET);
        PipelineHarness cached = harness(60_000);
        String first = cached.exchange(GET);
        String second = cached.exchange(GET);
        assertTrue(general.startsWith("HTTP/1.1 200 OK\r\n"), general);
        assertTrue(general.contains("cache-control: public, max-age=60\r\n"), general);
        assertTrue(general.endsWith("content-length: 13\r\n" + dateLine(general) + "\r\n<p>hello</p>\n"), general);
        assertEquals(PipelineHarness.undated(general), PipelineHarness.undated(first));
        assertEquals(PipelineHarness.undated(general), PipelineHarness.undated(second));
        assertEquals(1, PipelineHarness.dateLines(first), first);
        assertEquals(1, PipelineHarness.dateLines(second), second);
        assertTrue(cached.channel.isOpen());
    }

    @Test
    void conditionsAndRangesAreStillAnswered() throws Exception {
        page("0123456789");
        PipelineHarness h = harness(60_000);
        String full = h.exchange(GET);
        String etag = full.split("etag: ")[1].split("\r\n")[0];
        assertEquals("HTTP/1.1 304 Not Modified",
            PipelineHarness.statusLine(h.exchange("GET /page.html HTTP/1.1\r\nhost: x\r\nif-none-match: " + etag + "\r\n\r\n")));
        String range = h.exchange("GET /page.html HTTP/1.1\r\nhost: x\r\nrange: bytes=2-4\r\n\r\n");
        assertTrue(range.startsWith("HTTP/1.1 206 Partial Content\r\n") && range.endsWith("\r\n\r\n234"), range);
        assertEquals("HTTP/1.1 200 OK", PipelineHarness.statusLine(h.exchange(GET)));
    }

    @Test
    void aConnectionThatEndsOrSpeaksHttp10SaysSo() throws Exception {
        page("x");
        PipelineHarness h = harness(60_000);
        h.exchange(GET);
        String keep10 = h.exchange("GET /page.html HTTP/1.0\r\nconnection: keep-alive\r\n\r\n");
        assertTrue(keep10.contains("connection: keep-alive\r\n"), keep10);
        String close = h.exchange("GET /page.html HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n");
        assertTrue(close.contains("connection: close\r\n") && close.endsWith("\r\n\r\nx"), close);
        assertFalse(h.channel.isOpen());
    }

    @Test
    void aChangedFileIsSeenOnceTheCacheTimeIsOver() throws Exception {
        page("old");
        PipelineHarness h = harness(4_000); // under the keep-alive timeout, which the same clock drives
        assertTrue(h.exchange(GET).endsWith("\r\n\r\nold"));
        page("newer");
        h.elapse(3_000); // the event loop's clock also moves with real time: a second of margin each way
        assertTrue(h.exchange(GET).endsWith("\r\n\r\nold"), "kept for the cache time");
        h.elapse(2_000);
        String answer = h.exchange(GET);
        assertTrue(answer.contains("content-length: 5\r\n") && answer.endsWith("\r\n\r\nnewer"), answer);
    }

    @Test
    void headAndOtherPathsAreUntouched() throws Exception {
        page("body");
        PipelineHarness h = harness(60_000);
        h.exchange(GET);
        String head = h.exchange("HEAD /page.html HTTP/1.1\r\nhost: x\r\n\r\n");
        assertTrue(head.contains("content-length: 4\r\n") && head.endsWith("\r\n\r\n"), head);
        assertTrue(h.exchange("GET /app HTTP/1.1\r\nhost: x\r\n\r\n").endsWith("\r\n\r\napp"));
    }
}
