package org.nettyrack.netty.push;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.compression.DecompressionException;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.codec.http.websocketx.extensions.WebSocketServerExtension;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.zip.Inflater;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.nettyrack.netty.ClientMessages;

/** permessage-deflate offers (RFC 7692) and the Sec-WebSocket-Extensions answer to each. */
class WebSocketDeflateTest {
    private static final int LIMIT = 1024 * 1024;

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "permessage-deflate                                            | permessage-deflate",
        "permessage-deflate; client_max_window_bits                    | permessage-deflate",
        "permessage-deflate; client_max_window_bits=10                 | permessage-deflate; client_max_window_bits=10",
        "permessage-deflate; server_max_window_bits=10                 | permessage-deflate; server_max_window_bits=10",
        "permessage-deflate; server_no_context_takeover                | permessage-deflate; server_no_context_takeover",
        "permessage-deflate; client_no_context_takeover                | permessage-deflate",
        "x-webkit-deflate-frame, permessage-deflate                    | permessage-deflate",
        "permessage-deflate; client_max_window_bits=abc, permessage-deflate | permessage-deflate",
        "permessage-deflate; server_max_window_bits=7, permessage-deflate; client_max_window_bits=9"
            + " | permessage-deflate; client_max_window_bits=9",
    })
    void acceptsTheFirstOfferItCanServe(String offer, String response) {
        WebSocketServerExtension accepted = WebSocketDeflate.negotiate(offer, LIMIT);
        assertNotNull(accepted, offer);
        assertEquals(response, WebSocketDeflate.responseHeader(accepted));
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "x-webkit-deflate-frame",
        "permessage-deflate; client_max_window_bits=abc",
        "permessage-deflate; server_max_window_bits=abc",
        "permessage-deflate; server_max_window_bits",
        "permessage-deflate; client_max_window_bits=16",
        "permessage-deflate; server_max_window_bits=7",
        "permessage-deflate; no_such_parameter",
        "",
        "   ",
        ";;;,,,",
    })
    void declinesWhatItCannotServe(String offer) {
        assertNull(WebSocketDeflate.negotiate(offer, LIMIT), offer);
    }

    @Test
    void declinesWhenNothingIsOffered() {
        assertNull(WebSocketDeflate.negotiate(null, LIMIT));
    }

    @Test
    void theResponseHeaderJoinsParametersWithSemicolons() {
        WebSocketServerExtension both = WebSocketDeflate.negotiate(
            "permessage-deflate; server_no_context_takeover; server_max_window_bits=12", LIMIT);
        String header = WebSocketDeflate.responseHeader(both);
        assertEquals(Set.of("permessage-deflate", "server_no_context_takeover", "server_max_window_bits=12"),
            Set.of(header.split("; ")), header);
    }

    /** The agreed window must be one the compressor can really use (the JDK's zlib only does 15). */
    @Test
    void aSmallerServerWindowStillCompresses() throws Exception {
        WebSocketServerExtension ext = WebSocketDeflate.negotiate("permessage-deflate; server_max_window_bits=10", LIMIT);
        EmbeddedChannel ch = new EmbeddedChannel(ext.newExtensionEncoder());
        ch.writeOutbound(new TextWebSocketFrame("hello hello hello"));
        TextWebSocketFrame out = ch.readOutbound();
        assertEquals(0x4, out.rsv() & 0x4, "RSV1 marks a compressed message");
        ByteBuf content = out.content();
        byte[] compressed = new byte[content.readableBytes() + 4];
        content.readBytes(compressed, 0, content.readableBytes());
        compressed[compressed.length - 2] = (byte) 0xFF; // the 00 00 FF FF tail the sender strips
        compressed[compressed.length - 1] = (byte) 0xFF;
        out.release();
        Inflater inflater = new Inflater(true);
        inflater.setInput(compressed);
        byte[] plain = new byte[64];
        int n = inflater.inflate(plain);
        inflater.end();
        assertEquals("hello hello hello", new String(plain, 0, n, StandardCharsets.UTF_8));
        ch.finishAndReleaseAll();
    }

    // ---- sizes: the frame limit and the decompressor's cap ----

    @ParameterizedTest(name = "memLevel {0}")
    @ValueSource(ints = {1, 2, 5, 8, 9})
    void aFrameCanCarryAnIncompressibleMessageAtTheLimitWhateverTheClientsZlibSettings(int memLevel) {
        int limit = 64 * 1024;
        byte[] compressed = ClientMessages.deflate(memLevel).compress(ClientMessages.random(limit), true);
        assertTrue(compressed.length > limit, "deflate makes random bytes larger: " + compressed.length);
        assertTrue(compressed.length <= WebSocketDeflate.maxCompressedFrame(limit),
            compressed.length + " > " + WebSocketDeflate.maxCompressedFrame(limit));
    }

    @Test
    void theSizeRulesStayWithinAnInt() {
        assertEquals(Integer.MAX_VALUE, WebSocketDeflate.maxCompressedFrame(Integer.MAX_VALUE));
        assertEquals(Integer.MAX_VALUE, WebSocketDeflate.maxInflatedFrame(Integer.MAX_VALUE));
        assertEquals(1024 * 1024 + 131072 + 4096 + 2048 + 4 + 5, WebSocketDeflate.maxCompressedFrame(1024 * 1024));
    }

    /** A client text frame of {@code data}, compressed, as the frame decoder hands it on. */
    private static TextWebSocketFrame compressedFrame(byte[] data) {
        byte[] payload = ClientMessages.deflate(8).compress(data, true);
        return new TextWebSocketFrame(true, 0x4, Unpooled.wrappedBuffer(payload));
    }

    @ParameterizedTest(name = "{0} bytes")
    @ValueSource(ints = {LIMIT - 1, LIMIT, LIMIT + 1})
    void theDecoderInflatesAFrameAtTheLimitAndJustOver(int size) {
        EmbeddedChannel ch = new EmbeddedChannel(WebSocketDeflate.negotiate("permessage-deflate", LIMIT).newExtensionDecoder());
        ch.writeInbound(compressedFrame(ClientMessages.compressible(size)));
        TextWebSocketFrame out = ch.readInbound();
        assertEquals(size, out.content().readableBytes(), "over the limit is PushHandler's to refuse, with 1009");
        out.release();
        ch.finishAndReleaseAll();
    }

    @Test
    void theDecoderStopsAFrameThatInflatesPastItsCap() {
        EmbeddedChannel ch = new EmbeddedChannel(WebSocketDeflate.negotiate("permessage-deflate", LIMIT).newExtensionDecoder());
        TextWebSocketFrame bomb = compressedFrame(new byte[64 * LIMIT]);
        assertTrue(bomb.content().readableBytes() < 128 * 1024, "64 MiB in " + bomb.content().readableBytes() + " bytes");
        DecompressionException refused = assertThrows(DecompressionException.class, () -> ch.writeInbound(bomb));
        assertTrue(refused.getMessage().endsWith("maximum size: " + WebSocketDeflate.maxInflatedFrame(LIMIT)),
            "the buffer stopped growing at the cap: " + refused.getMessage());
        assertNull(ch.readInbound(), "and nothing was handed on");
        ch.finishAndReleaseAll();
    }
}
