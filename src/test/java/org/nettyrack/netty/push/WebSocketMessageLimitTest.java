package org.nettyrack.netty.push;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.nettyrack.core.RackHandler;
import org.nettyrack.core.ResponseHeaders;
import org.nettyrack.core.config.ServerConfig;
import org.nettyrack.core.push.PushClose;
import org.nettyrack.core.push.RecordingEndpoint;
import org.nettyrack.netty.ClientMessages;
import org.nettyrack.netty.PipelineHarness;

/**
 * Messages around {@code --max-message-size} through the real upgraded pipeline: with and
 * without permessage-deflate, compressible and not, in one frame or several. A message up to
 * the limit (counted after decompression) reaches the app whole, and the connection goes on;
 * one byte more closes with 1009 and reaches nothing. A client's zlib memLevel decides how
 * much an incompressible message grows: 8 is the default, 1 the worst (4%).
 */
class WebSocketMessageLimitTest {
    private static final int LIMIT = 64 * 1024;
    private static final int DEFAULT_LIMIT = 1024 * 1024;
    private static final String WS_GET = "GET /chat HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
        + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n";

    private final RecordingEndpoint endpoint = new RecordingEndpoint();

    /** A connection upgraded with a client that compresses at {@code memLevel} (0: no deflate offered). */
    private PipelineHarness upgraded(int limit, int memLevel) {
        RackHandler app = (request, sink) -> sink.upgrade(0, new ResponseHeaders(), endpoint);
        PipelineHarness h = new PipelineHarness(ServerConfig.builder().maxMessageSize(limit).build(), app, task -> {
            task.run();
            return true;
        });
        String offer = memLevel == 0 ? "" : "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n";
        String head = h.exchange(WS_GET + offer + "\r\n");
        assertTrue(head.startsWith("HTTP/1.1 101"), head);
        assertEquals(memLevel != 0, head.toLowerCase(Locale.ROOT).contains("permessage-deflate"), head);
        return h;
    }

    private static ClientMessages client(int memLevel) {
        return memLevel == 0 ? ClientMessages.uncompressed() : ClientMessages.deflate(memLevel);
    }

    /** The status code of the close frame at the start of the server's output. */
    private static int closeCode(String out) {
        assertTrue(out.length() >= 4 && out.charAt(0) == (char) 0x88, "a close frame: " + out);
        return (out.charAt(2) << 8) | out.charAt(3);
    }

    static Stream<Arguments> sizes() {
        List<Arguments> cases = new ArrayList<>();
        for (int memLevel : new int[] {0, 8, 1}) {
            for (boolean random : new boolean[] {false, true}) {
                for (int size : new int[] {LIMIT - 1, LIMIT, LIMIT + 1}) {
                    for (int fragments : new int[] {1, 3}) {
                        cases.add(Arguments.of(memLevel, random, size, fragments));
                    }
                }
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "memLevel {0} (0: uncompressed), random {1}, {2} bytes in {3} frame(s)")
    @MethodSource("sizes")
    void upToTheLimitArrivesWholeAndOneByteMoreCloses1009(int memLevel, boolean random, int size, int fragments) {
        check(LIMIT, memLevel, random, size, fragments);
    }

    static Stream<Arguments> defaultLimit() {
        return Stream.of(
            Arguments.of(5, true, DEFAULT_LIMIT, 1), // Python's websockets: random bytes grow by 0.25%
            Arguments.of(5, true, DEFAULT_LIMIT + 1, 1),
            Arguments.of(8, false, DEFAULT_LIMIT, 1),
            Arguments.of(8, false, DEFAULT_LIMIT + 1, 4));
    }

    @ParameterizedTest(name = "1 MiB limit: memLevel {0}, random {1}, {2} bytes in {3} frame(s)")
    @MethodSource("defaultLimit")
    void theDefaultLimitToo(int memLevel, boolean random, int size, int fragments) {
        check(DEFAULT_LIMIT, memLevel, random, size, fragments);
    }

    private void check(int limit, int memLevel, boolean random, int size, int fragments) {
        PipelineHarness h = upgraded(limit, memLevel);
        ClientMessages client = client(memLevel);
        byte[] data = random ? ClientMessages.random(size) : ClientMessages.compressible(size);
        int opcode = random ? ClientMessages.BINARY : ClientMessages.TEXT;
        String out = h.exchange(client.message(opcode, data, fragments));
        if (size <= limit) {
            assertEquals("", out, "nothing written back");
            assertEquals(1, endpoint.messages.size(), endpoint.events.toString());
            assertArrayEquals(data, endpoint.messages.get(0));
            h.exchange(client.message(ClientMessages.TEXT, "next".getBytes(StandardCharsets.UTF_8), 1));
            assertEquals("text:next", endpoint.events.get(endpoint.events.size() - 1), "the connection goes on");
        } else {
            assertEquals(PushClose.TOO_BIG, closeCode(out));
            assertTrue(endpoint.messages.isEmpty(), "the app saw no part of it");
        }
    }

    @Test
    void aDeflateBombClosesWith1009() {
        PipelineHarness h = upgraded(LIMIT, 8);
        ClientMessages client = client(8);
        byte[] frame = client.message(ClientMessages.BINARY, new byte[256 * LIMIT], 1);
        assertTrue(frame.length < LIMIT / 2, "a small frame (" + frame.length + " bytes) for 16 MiB");
        assertEquals(PushClose.TOO_BIG, closeCode(h.exchange(frame)));
        assertTrue(endpoint.messages.isEmpty());
    }

    @Test
    void aDeflateBombInFragmentsClosesWith1009() {
        PipelineHarness h = upgraded(LIMIT, 8);
        byte[] frames = client(8).message(ClientMessages.BINARY, new byte[256 * LIMIT], 4);
        assertEquals(PushClose.TOO_BIG, closeCode(h.exchange(frames)));
        assertTrue(endpoint.messages.isEmpty());
    }

    @Test
    void compressedDataThatDoesNotInflateClosesWith1007() {
        PipelineHarness h = upgraded(LIMIT, 8);
        byte[] invalid = {(byte) 0xff, (byte) 0xff, (byte) 0xff, 0x00}; // block type 3 does not exist
        String out = h.exchange(ClientMessages.frame(ClientMessages.TEXT, true, true, invalid));
        assertEquals(PushClose.INVALID_DATA, closeCode(out));
        assertTrue(endpoint.messages.isEmpty());
    }

    @Test
    void compressedDataCutShortClosesWith1007() {
        PipelineHarness h = upgraded(LIMIT, 8);
        // The first 10 bytes of a dynamic-Huffman block: half its code tables, so no output and no error.
        byte[] cut = {0x2c, (byte) 0x97, 0x0b, (byte) 0x96, 0x23, 0x31, 0x08, 0x03, (byte) 0xcf, 0x0a};
        String out = h.exchange(ClientMessages.frame(ClientMessages.TEXT, true, true, cut));
        assertEquals(PushClose.INVALID_DATA, closeCode(out));
        assertTrue(endpoint.messages.isEmpty());
    }

    @Test
    void aCompressedFrameOverTheFrameLimitClosesWith1009() {
        PipelineHarness h = upgraded(LIMIT, 8);
        byte[] payload = new byte[WebSocketDeflate.maxCompressedFrame(LIMIT) + 1];
        String out = h.exchange(ClientMessages.frame(ClientMessages.BINARY, true, true, payload));
        assertEquals(PushClose.TOO_BIG, closeCode(out));
        assertTrue(endpoint.messages.isEmpty());
    }
}
