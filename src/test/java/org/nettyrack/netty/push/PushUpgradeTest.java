package org.nettyrack.netty.push;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpVersion;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.nettyrack.core.RackHandler;
import org.nettyrack.core.RequestBody;
import org.nettyrack.core.ResponseHeaders;
import org.nettyrack.core.Upgrade;
import org.nettyrack.core.config.ServerConfig;
import org.nettyrack.core.push.RecordingEndpoint;
import org.nettyrack.core.push.SseEvent;
import org.nettyrack.netty.PipelineHarness;
import org.nettyrack.netty.exchange.NettyRackRequest;

/**
 * Which of Netty's decoded requests may be upgraded, and the switch itself on the real
 * pipeline: the bytes of the 101 or the event-stream head, then frames both ways.
 */
class PushUpgradeTest {
    private static final String KEY = "dGhlIHNhbXBsZSBub25jZQ=="; // RFC 6455 section 1.3
    private static final String ACCEPT = "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=";
    private static final String WS_GET = "GET /chat HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        + "Sec-WebSocket-Key: " + KEY + "\r\nSec-WebSocket-Version: 13\r\n";
    private static final String[] WS = {"Upgrade", "websocket", "Connection", "Upgrade",
        "Sec-WebSocket-Key", KEY, "Sec-WebSocket-Version", "13"};

    private static HttpRequest head(HttpVersion version, HttpMethod method, String... headers) {
        HttpRequest r = new DefaultHttpRequest(version, method, "/");
        for (int i = 0; i < headers.length; i += 2) {
            r.headers().add(headers[i], headers[i + 1]);
        }
        return r;
    }

    /** The valid handshake headers with some values replaced. */
    private static String[] ws(String... replace) {
        String[] h = WS.clone();
        for (int i = 0; i < replace.length; i += 2) {
            for (int j = 0; j < h.length; j += 2) {
                if (h[j].equals(replace[i])) {
                    h[j + 1] = replace[i + 1];
                }
            }
        }
        return h;
    }

    static Stream<Arguments> heads() {
        HttpVersion h11 = HttpVersion.HTTP_1_1;
        HttpMethod get = HttpMethod.GET;
        return Stream.of(
            Arguments.of("valid WebSocket handshake", head(h11, get, WS), Upgrade.WEBSOCKET),
            Arguments.of("header values in any case", head(h11, get, ws("Upgrade", "WebSocket", "Connection", "upgrade")),
                Upgrade.WEBSOCKET),
            Arguments.of("Connection: keep-alive, Upgrade (Firefox)",
                head(h11, get, ws("Connection", "keep-alive, Upgrade")), Upgrade.WEBSOCKET),
            Arguments.of("no Sec-WebSocket-Key", head(h11, get, "Upgrade", "websocket", "Connection", "Upgrade",
                "Sec-WebSocket-Version", "13"), Upgrade.NONE),
            Arguments.of("version 8", head(h11, get, ws("Sec-WebSocket-Version", "8")), Upgrade.NONE),
            Arguments.of("no Connection: Upgrade", head(h11, get, ws("Connection", "keep-alive")), Upgrade.NONE),
            Arguments.of("Upgrade: h2c", head(h11, get, ws("Upgrade", "h2c")), Upgrade.NONE),
            Arguments.of("POST", head(h11, HttpMethod.POST, WS), Upgrade.NONE),
            Arguments.of("HTTP/1.0", head(HttpVersion.HTTP_1_0, get, WS), Upgrade.NONE),
            Arguments.of("Accept: text/event-stream", head(h11, get, "Accept", "text/event-stream"), Upgrade.SSE),
            Arguments.of("event-stream among others", head(h11, get, "Accept", "text/html, Text/Event-Stream;q=0.9"),
                Upgrade.SSE),
            Arguments.of("event-stream over HTTP/1.0", head(HttpVersion.HTTP_1_0, get, "Accept", "text/event-stream"),
                Upgrade.SSE),
            Arguments.of("event-stream POST", head(h11, HttpMethod.POST, "Accept", "text/event-stream"), Upgrade.NONE),
            Arguments.of("plain GET", head(h11, get, "Accept", "text/html"), Upgrade.NONE),
            Arguments.of("plain GET, no headers", head(h11, get), Upgrade.NONE));
    }

    /** The core's rule ({@code UpgradeTest}) as the Netty door applies it to its decoded heads. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("heads")
    void detect(String name, HttpRequest head, Upgrade expected) {
        assertEquals(expected, new NettyRackRequest(head, RequestBody.EMPTY, null, null).upgrade());
    }

    @Test
    void connectionTokensAreFoundInAnyOfItsFields() {
        HttpRequest head = head(HttpVersion.HTTP_1_1, HttpMethod.GET, ws("Connection", "keep-alive"));
        head.headers().add("Connection", "Upgrade");
        assertEquals(Upgrade.WEBSOCKET, new NettyRackRequest(head, RequestBody.EMPTY, null, null).upgrade());
    }

    // ---- the switch, on the real pipeline ----

    private final RecordingEndpoint endpoint = new RecordingEndpoint();

    private static ResponseHeaders headers(String... pairs) {
        ResponseHeaders h = new ResponseHeaders();
        for (int i = 0; i < pairs.length; i += 2) {
            h.add(pairs[i], pairs[i + 1]);
        }
        return h;
    }

    private PipelineHarness upgrading(ServerConfig config, int status, ResponseHeaders headers, List<Upgrade> seen) {
        RackHandler app = (request, sink) -> {
            seen.add(request.upgrade());
            sink.upgrade(status, headers, endpoint);
        };
        return new PipelineHarness(config, app, task -> {
            task.run();
            return true;
        });
    }

    /** A client frame: FIN, masked, payload under 126 bytes. */
    static String clientFrame(int opcode, boolean fin, byte[] payload) {
        byte[] mask = {0x11, 0x22, 0x33, 0x44};
        StringBuilder b = new StringBuilder();
        b.append((char) ((fin ? 0x80 : 0) | opcode));
        b.append((char) (0x80 | payload.length));
        for (byte m : mask) {
            b.append((char) (m & 0xFF));
        }
        for (int i = 0; i < payload.length; i++) {
            b.append((char) ((payload[i] ^ mask[i % 4]) & 0xFF));
        }
        return b.toString();
    }

    static String clientFrame(int opcode, String payload) {
        return clientFrame(opcode, true, payload.getBytes(StandardCharsets.UTF_8));
    }

    /** A server frame as read off the wire: FIN, unmasked, payload under 126 bytes. */
    static String serverFrame(int opcode, byte[] payload) {
        return "" + (char) (0x80 | opcode) + (char) payload.length + new String(payload, StandardCharsets.ISO_8859_1);
    }

    static byte[] closePayload(int code) {
        return new byte[] {(byte) (code >> 8), (byte) code};
    }

    @Test
    void aWebSocketUpgradeAnswers101WithTheAppsHeadersThenCarriesFrames() {
        List<Upgrade> seen = new ArrayList<>();
        PipelineHarness h = upgrading(ServerConfig.builder().build(), 0,
            headers("x-app", "1", "content-length", "99", "sec-websocket-protocol", "chat"), seen);
        String out = h.exchange(WS_GET + "Sec-WebSocket-Protocol: chat, superchat\r\n\r\n");

        assertEquals(List.of(Upgrade.WEBSOCKET), seen);
        assertEquals("HTTP/1.1 101 Switching Protocols", PipelineHarness.statusLine(out), out);
        String lower = out.toLowerCase(Locale.ROOT);
        assertTrue(lower.contains("sec-websocket-accept: " + ACCEPT.toLowerCase(Locale.ROOT)), out);
        assertTrue(lower.contains("sec-websocket-protocol: chat\r\n"), out);
        assertTrue(out.contains("x-app: 1\r\n"), out);
        assertFalse(lower.contains("content-length"), "hop-by-hop and body headers are not forwarded: " + out);
        assertFalse(lower.contains("sec-websocket-extensions"), "no deflate unless offered");
        assertEquals(List.of("open"), endpoint.events);
        assertNull(h.channel.pipeline().get("dispatcher"), "the HTTP handlers left");
        assertNotNull(h.channel.pipeline().get("push"));

        assertEquals("", h.exchange(clientFrame(0x1, "hello")));
        assertEquals("", h.exchange(clientFrame(0x2, "bin")));
        assertEquals(List.of("open", "text:hello", "binary:bin"), endpoint.events);

        assertTrue(endpoint.connection.send("hi".getBytes(StandardCharsets.UTF_8), true));
        h.channel.runPendingTasks();
        assertEquals(serverFrame(0x1, "hi".getBytes(StandardCharsets.UTF_8)), h.output());

        assertEquals(serverFrame(0xA, "p".getBytes(StandardCharsets.UTF_8)), h.exchange(clientFrame(0x9, "p")),
            "ping answered with a pong");

        String closing = h.exchange(clientFrame(0x8, true, closePayload(1000)));
        assertEquals(serverFrame(0x8, closePayload(1000)), closing, "the close is answered");
        assertFalse(h.channel.isOpen());
        assertEquals("close", endpoint.events.get(endpoint.events.size() - 1));
        assertEquals(1, endpoint.count("close"));
    }

    @Test
    void fragmentsAreJoinedIntoOneMessage() {
        PipelineHarness h = upgrading(ServerConfig.builder().build(), 0, headers(), new ArrayList<>());
        h.exchange(WS_GET + "\r\n");
        h.exchange(clientFrame(0x1, false, "hel".getBytes(StandardCharsets.UTF_8))
            + clientFrame(0x0, true, "lo".getBytes(StandardCharsets.UTF_8)));
        assertEquals(List.of("open", "text:hello"), endpoint.events);
    }

    @Test
    void protocolErrorsFromTheDecoderAreSentAsEncodedCloseFrames() {
        PipelineHarness h = upgrading(ServerConfig.builder().build(), 0, headers(), new ArrayList<>());
        h.exchange(WS_GET + "\r\n");
        String unmasked = "" + (char) 0x81 + (char) 2 + "hi"; // clients must mask
        String out = h.exchange(unmasked);
        assertTrue(out.startsWith("" + (char) 0x88), "a close frame on the wire, not an unencoded object: " + out);
        assertEquals(1002, ((out.charAt(2) & 0xFF) << 8) | (out.charAt(3) & 0xFF));
        assertFalse(endpoint.events.contains("text:hi"));
    }

    @Test
    void invalidUtf8InATextMessageClosesWith1007() {
        PipelineHarness h = upgrading(ServerConfig.builder().build(), 0, headers(), new ArrayList<>());
        h.exchange(WS_GET + "\r\n");
        String out = h.exchange(clientFrame(0x1, true, new byte[] {'a', (byte) 0xFF}));
        assertTrue(out.startsWith("" + (char) 0x88), out);
        assertEquals(1007, ((out.charAt(2) & 0xFF) << 8) | (out.charAt(3) & 0xFF));
        assertEquals("open", endpoint.events.get(0));
        assertFalse(endpoint.events.stream().anyMatch(e -> e.startsWith("text:")));
    }

    @Test
    void aMessageOverTheLimitInFragmentsClosesWith1009() {
        ServerConfig config = ServerConfig.builder().maxMessageSize(125).build();
        PipelineHarness h = upgrading(config, 0, headers(), new ArrayList<>());
        h.exchange(WS_GET + "\r\n");
        byte[] part = new byte[100];
        Arrays.fill(part, (byte) 'a');
        String out = h.exchange(clientFrame(0x1, false, part) + clientFrame(0x0, true, part));
        assertTrue(out.startsWith("" + (char) 0x88), out);
        assertEquals(1009, ((out.charAt(2) & 0xFF) << 8) | (out.charAt(3) & 0xFF));
        assertFalse(endpoint.events.stream().anyMatch(e -> e.startsWith("text:")));
    }

    @Test
    void offeredDeflateIsAgreedInThe101() {
        PipelineHarness h = upgrading(ServerConfig.builder().build(), 0, headers(), new ArrayList<>());
        String out = h.exchange(WS_GET + "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n\r\n");
        assertTrue(out.toLowerCase(Locale.ROOT).contains("sec-websocket-extensions: permessage-deflate\r\n"), out);
        assertNotNull(h.channel.pipeline().get("wsdeflate-decoder"));
        // "hello" compressed with a raw deflate stream, the 4-byte tail removed (RFC 7692 7.2.3.1).
        byte[] compressed = {(byte) 0xca, 0x48, (byte) 0xcd, (byte) 0xc9, (byte) 0xc9, 0x07, 0x00};
        StringBuilder frame = new StringBuilder(clientFrame(0x1, true, compressed));
        frame.setCharAt(0, (char) (0x80 | 0x40 | 0x1)); // RSV1: compressed
        h.exchange(frame.toString());
        assertEquals(List.of("open", "text:hello"), endpoint.events);
    }

    @Test
    void anSseUpgradeSendsAnEventStreamHeadThenChunkedEvents() {
        List<Upgrade> seen = new ArrayList<>();
        PipelineHarness h = upgrading(ServerConfig.builder().build(), 200,
            headers("x-app", "1", "content-type", "text/plain", "content-length", "5"), seen);
        String out = h.exchange("GET /events HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n");

        assertEquals(List.of(Upgrade.SSE), seen);
        assertEquals("HTTP/1.1 200 OK", PipelineHarness.statusLine(out), out);
        assertTrue(out.contains("content-type: text/event-stream\r\n"), out);
        assertFalse(out.contains("text/plain"), out);
        assertTrue(out.contains("cache-control: no-cache\r\n"), out);
        assertTrue(out.contains("transfer-encoding: chunked\r\n"), out);
        assertFalse(out.contains("content-length"), out);
        assertTrue(out.contains("x-app: 1\r\n"), out);
        assertTrue(out.endsWith("\r\n\r\n"), "a head only: " + out);
        assertEquals(List.of("open"), endpoint.events);

        assertTrue(endpoint.connection.send(SseEvent.data("hi".getBytes(StandardCharsets.UTF_8)), true));
        h.channel.runPendingTasks();
        assertEquals("a\r\ndata: hi\n\n\r\n", h.output());

        endpoint.connection.close();
        h.channel.runPendingTasks();
        assertEquals("0\r\n\r\n", h.output(), "the stream ends");
        assertFalse(h.channel.isOpen());
        assertEquals(List.of("open", "close"), endpoint.events);
    }

    @Test
    void theAccessLogSaysTheStatusThatWentOutNotTheApps() {
        java.io.ByteArrayOutputStream log = new java.io.ByteArrayOutputStream();
        PipelineHarness sse = upgrading(ServerConfig.builder().accessLog(log).build(), 0, headers(), new ArrayList<>());
        assertEquals("HTTP/1.1 200 OK", PipelineHarness.statusLine(
            sse.exchange("GET /events HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n")));
        PipelineHarness ws = upgrading(ServerConfig.builder().accessLog(log).build(), 200, headers(), new ArrayList<>());
        assertEquals("HTTP/1.1 101 Switching Protocols", PipelineHarness.statusLine(ws.exchange(
            "GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")));
        String lines = log.toString(StandardCharsets.UTF_8);
        assertTrue(lines.contains("\"GET /events HTTP/1.1\" 200 "), lines); // the app said 0
        assertTrue(lines.contains("\"GET /ws HTTP/1.1\" 101 "), lines); // the app said 200
    }
}
