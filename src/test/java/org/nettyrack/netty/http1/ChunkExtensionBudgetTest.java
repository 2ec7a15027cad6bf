package org.nettyrack.netty.http1;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.nettyrack.core.config.ServerConfig;
import org.nettyrack.netty.EchoHandler;
import org.nettyrack.netty.PipelineHarness;

/**
 * Chunk extensions cost a chunked body its budget (CVE-2024-21647 in Puma): data pays for them,
 * one chunk header may not use more than a quarter, and a body over budget gets 400. Bodies
 * are fed to the real pipeline in pieces as a slow client would send them.
 */
class ChunkExtensionBudgetTest {
    private static final String HEAD = "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n";

    private static PipelineHarness harness(EchoHandler app, int maxChunkExtensions) {
        return new PipelineHarness(ServerConfig.builder().maxChunkExtensions(maxChunkExtensions).build(), app, task -> {
            task.run();
            return true;
        });
    }

    /** Sends the head, then each chunk in its own read, then the last chunk. */
    private static String send(PipelineHarness h, String chunk, int count) {
        StringBuilder out = new StringBuilder(h.exchange(HEAD));
        for (int i = 0; i < count && h.channel.isOpen(); i++) {
            out.append(h.exchange(chunk));
        }
        if (h.channel.isOpen()) {
            out.append(h.exchange("0\r\n\r\n"));
        }
        return out.toString();
    }

    private static String chunk(int size, int extension) {
        String ext = extension == 0 ? "" : ";a=" + "x".repeat(extension - 3);
        return Integer.toHexString(size) + ext + "\r\n" + "d".repeat(size) + "\r\n";
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = ';', value = {
        // what;                                data; extension; chunks; status
        "one-byte chunks, no extensions;           1;    0;        5000;   200",
        "one-byte chunks, small extensions;        1;    8;        2000;   200",
        "data outweighs its extensions;            8192; 4000;     40;     200",
        "an extension just under a quarter;        16;   4000;     1;      200",
        "an extension over a quarter;              16;   4200;     1;      400",
        "extensions outweigh data, in total;       16;   1000;     40;     400",
    })
    void spendsTheBudget(String what, int data, int extension, int chunks, int status) {
        EchoHandler app = new EchoHandler();
        PipelineHarness h = harness(app, 16 * 1024);
        String response = send(h, chunk(data, extension), chunks);
        assertEquals("HTTP/1.1 " + status, PipelineHarness.statusLine(response).substring(0, 12), what);
        assertEquals(status == 200 ? 1 : 0, app.seen.size());
        if (status == 200) {
            assertEquals("POST / " + (long) data * chunks, app.seen.get(0));
        } else {
            assertFalse(h.channel.isOpen());
        }
    }

    @Test
    void countsOnlyTheBodyBetweenItsHeadAndItsEnd() {
        EchoHandler app = new EchoHandler();
        PipelineHarness h = harness(app, 1024);
        // Two bodies on one connection, each spending most of the budget: the second starts afresh.
        for (int i = 0; i < 2; i++) {
            assertTrue(send(h, chunk(1, 200), 4).startsWith("HTTP/1.1 200"));
        }
        assertTrue(h.exchange("GET / HTTP/1.1\r\nHost: a\r\n\r\n").startsWith("HTTP/1.1 200"));
        assertEquals(3, app.seen.size());
    }

    @Test
    void aQuarterOfTheBudgetPerChunkFollowsTheSetting() {
        PipelineHarness h = harness(new EchoHandler(), 1024);
        assertTrue(send(h, chunk(1, 300), 1).startsWith("HTTP/1.1 400"));
    }
}
