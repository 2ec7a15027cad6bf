package org.nettyrack.netty.listen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.nettyrack.core.RackHandler;
import org.nettyrack.core.ResponseHeaders;
import org.nettyrack.core.config.ServerConfig;
import org.nettyrack.netty.PipelineHarness;

/**
 * The full pipeline with {@code proxyProtocol(true)}: the PROXY header that opens a connection
 * names the client; anything else in its place closes the connection before the app; a PROXY
 * header later on is only a bad HTTP request line. The socket's own peer is 10.9.9.9:4242.
 */
class ProxyProtocolHandlerTest {
    private static final String GET = "GET / HTTP/1.1\r\nHost: x\r\n\r\n";
    private static final String PEER = "10.9.9.9:4242";
    private static final String V2_SIGNATURE = "\r\n\r\n\0\r\nQUIT\n";

    private final List<String> seen = new ArrayList<>();
    private final ByteArrayOutputStream errors = new ByteArrayOutputStream();
    private final ByteArrayOutputStream accessLog = new ByteArrayOutputStream();

    /** An app answering with the client address it was given: "REMOTE_ADDR:port". */
    private final RackHandler app = (request, response) -> {
        String client = request.remoteAddress() + ":" + request.remotePort();
        seen.add(client);
        byte[] body = client.getBytes(StandardCharsets.US_ASCII);
        response.respond(200, new ResponseHeaders(), body, 0, body.length);
    };

    private PipelineHarness harness(boolean proxyProtocol) {
        ServerConfig config = ServerConfig.builder().proxyProtocol(proxyProtocol).headerTimeoutMillis(1_000)
            .errorLog(errors).accessLog(accessLog).build();
        return new PipelineHarness(config, app, task -> {
            task.run();
            return true;
        }, new InetSocketAddress("10.9.9.9", 4242));
    }

    static Stream<Arguments> headers() {
        String tcp4 = bytes(192, 0, 2, 7, 10, 0, 0, 1) + port(51234) + port(80);
        String tcp6 = bytes(0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7)
            + bytes(0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1) + port(443) + port(8080);
        String unix = pad("/run/client.sock", 108) + pad("/run/app.sock", 108);
        String tlvs = tlv(0x01, "h2") + tlv(0x02, "example.com")
            + tlv(0x20, bytes(0x01, 0, 0, 0, 0) + tlv(0x21, "TLSv1.3") + tlv(0x22, "client")) + tlv(0xe0, "custom");
        return Stream.of(
            Arguments.of("v1 TCP4", "PROXY TCP4 192.0.2.7 10.0.0.1 51234 80\r\n", "192.0.2.7:51234"),
            Arguments.of("v1 TCP6", "PROXY TCP6 2001:db8::7 2001:db8::1 443 8080\r\n", "2001:db8:0:0:0:0:0:7:443"),
            Arguments.of("v1 UNKNOWN", "PROXY UNKNOWN\r\n", PEER),
            Arguments.of("v1 UNKNOWN with addresses", "PROXY UNKNOWN 192.0.2.7 10.0.0.1 51234 80\r\n", PEER),
            Arguments.of("v2 PROXY TCP4", v2(0x21, 0x11, tcp4), "192.0.2.7:51234"),
            Arguments.of("v2 PROXY TCP6", v2(0x21, 0x21, tcp6), "2001:db8:0:0:0:0:0:7:443"),
            Arguments.of("v2 PROXY TCP4 with TLVs", v2(0x21, 0x11, tcp4 + tlvs), "192.0.2.7:51234"),
            Arguments.of("v2 PROXY UDP4", v2(0x21, 0x12, tcp4), "192.0.2.7:51234"),
            Arguments.of("v2 LOCAL (health check)", v2(0x20, 0x00, ""), PEER),
            Arguments.of("v2 LOCAL with addresses and TLVs", v2(0x20, 0x11, tcp4 + tlvs), PEER),
            Arguments.of("v2 PROXY UNSPEC", v2(0x21, 0x00, ""), PEER),
            Arguments.of("v2 PROXY UNIX", v2(0x21, 0x31, unix), PEER));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("headers")
    void theHeaderNamesTheClient(String name, String header, String client) {
        PipelineHarness h = harness(true);
        String response = h.exchange(header + GET);
        assertEquals("HTTP/1.1 200 OK", PipelineHarness.statusLine(response), response);
        assertEquals(List.of(client), seen);
        assertNull(h.channel.pipeline().get("proxy-decoder"), "the decoder left the pipeline");
        assertNull(h.channel.pipeline().get("proxy"), "the handler left the pipeline");
        assertEquals("", errors.toString(StandardCharsets.UTF_8));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("headers")
    void aHeaderArrivingByteByByteIsWaitedFor(String name, String header, String client) {
        PipelineHarness h = harness(true);
        for (char c : header.toCharArray()) {
            assertEquals("", h.exchange(String.valueOf(c)));
        }
        assertTrue(h.channel.isOpen());
        assertEquals("HTTP/1.1 200 OK", PipelineHarness.statusLine(h.exchange(GET)));
        assertEquals(List.of(client), seen);
    }

    @Test
    void theRequestsThatFollowKeepTheAddress() {
        PipelineHarness h = harness(true);
        h.exchange("PROXY TCP4 192.0.2.7 10.0.0.1 51234 80\r\n" + GET + GET);
        h.exchange(GET);
        assertEquals(List.of("192.0.2.7:51234", "192.0.2.7:51234", "192.0.2.7:51234"), seen);
        assertTrue(accessLog.toString(StandardCharsets.UTF_8).startsWith("192.0.2.7 - - ["), accessLog.toString());
    }

    static Stream<Arguments> laterHeaders() {
        return Stream.of(
            Arguments.of("v1", "PROXY TCP4 203.0.113.66 10.0.0.1 6666 80\r\n"),
            Arguments.of("v2", v2(0x21, 0x11, bytes(203, 0, 113, 66, 10, 0, 0, 1) + port(6666) + port(80))));
    }

    /** Puma's CVE-2026-47737: a second header on a keep-alive connection rewrote REMOTE_ADDR. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("laterHeaders")
    void aSecondHeaderOnAKeepAliveConnectionIsABadRequest(String name, String later) {
        PipelineHarness h = harness(true);
        assertEquals("HTTP/1.1 200 OK", PipelineHarness.statusLine(h.exchange("PROXY TCP4 192.0.2.7 10.0.0.1 51234 80\r\n" + GET)));
        String response = h.exchange(later + GET);
        assertEquals("HTTP/1.1 400 Bad Request", PipelineHarness.statusLine(response), response);
        assertFalse(h.channel.isOpen());
        assertEquals(List.of("192.0.2.7:51234"), seen);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("laterHeaders")
    void aSecondHeaderPipelinedBehindTheFirstIsABadRequest(String name, String later) {
        PipelineHarness h = harness(true);
        String response = h.exchange("PROXY TCP4 192.0.2.7 10.0.0.1 51234 80\r\n" + GET + later + GET);
        assertTrue(response.startsWith("HTTP/1.1 200 OK") && response.contains("HTTP/1.1 400 Bad Request"), response);
        assertEquals(List.of("192.0.2.7:51234"), seen);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("laterHeaders")
    void withoutTheOptionAHeaderIsABadRequest(String name, String header) {
        PipelineHarness h = harness(false);
        assertEquals("HTTP/1.1 400 Bad Request", PipelineHarness.statusLine(h.exchange(header + GET)));
        assertFalse(h.channel.isOpen());
        assertTrue(seen.isEmpty());
    }

    static Stream<Arguments> badOpenings() {
        return Stream.of(
            Arguments.of("no header, plain HTTP", GET),
            Arguments.of("TLS handshake", bytes(0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xfc, 0x03, 0x03) + "\r\n\r\n" + "x".repeat(200)),
            Arguments.of("v1 without addresses", "PROXY TCP4\r\n" + GET),
            Arguments.of("v1 bad address", "PROXY TCP4 192.0.2.999 10.0.0.1 51234 80\r\n" + GET),
            Arguments.of("v1 bad port", "PROXY TCP4 192.0.2.7 10.0.0.1 99999 80\r\n" + GET),
            Arguments.of("v1 IPv6 in TCP4", "PROXY TCP6 192.0.2.7 10.0.0.1 51234 80\r\n" + GET),
            Arguments.of("v1 lower case", "proxy TCP4 192.0.2.7 10.0.0.1 51234 80\r\n" + GET),
            Arguments.of("v1 over 107 bytes", "PROXY TCP4 " + "1".repeat(120) + "\r\n" + GET),
            Arguments.of("v1 with control bytes", "PROXY \u001b[31mTCP4\r\n" + GET),
            Arguments.of("v2 version 3", V2_SIGNATURE + bytes(0x31, 0x11, 0, 12) + "x".repeat(12) + GET),
            Arguments.of("v2 unknown command", V2_SIGNATURE + bytes(0x2f, 0x11, 0, 12) + "x".repeat(12) + GET),
            Arguments.of("v2 TCP4 address cut short", v2(0x21, 0x11, bytes(192, 0, 2, 7)) + GET),
            Arguments.of("v2 TLV longer than the header", v2(0x21, 0x11, bytes(192, 0, 2, 7, 10, 0, 0, 1) + port(1) + port(2)
                + bytes(0x20, 0x00, 0x40) + bytes(1, 0, 0, 0, 0)) + GET));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badOpenings")
    void aConnectionThatDoesNotOpenWithAHeaderIsClosedUnanswered(String name, String opening) {
        PipelineHarness h = harness(true);
        assertEquals("", h.exchange(opening));
        assertFalse(h.channel.isOpen());
        assertTrue(seen.isEmpty(), "the app must not see it");
        String log = errors.toString(StandardCharsets.UTF_8);
        assertTrue(log.startsWith("nettyrack: closed a connection from 10.9.9.9:4242 that did not open with a valid "
            + "PROXY protocol header ("), log);
        assertEquals(1, log.lines().count(), log);
        assertTrue(log.chars().allMatch(c -> c == '\n' || (c >= 0x20 && c < 0x7f)), log);
    }

    /** Netty's decoder parses the rest once more as the connection closes; a header there is no header. */
    @Test
    void aHeaderBehindABadOpeningIsIgnored() {
        PipelineHarness h = harness(true);
        h.exchange("GET / HTTP/1.1\r\nPROXY TCP4 192.0.2.7 10.0.0.1 51234 80\r\n" + GET);
        assertFalse(h.channel.isOpen());
        assertEquals(new InetSocketAddress("10.9.9.9", 4242), ProxyProtocolHandler.clientAddress(h.channel));
        assertEquals(1, errors.toString(StandardCharsets.UTF_8).lines().count());
    }

    @Test
    void anIncompleteHeaderGetsTheHeaderTimeout() {
        PipelineHarness h = harness(true);
        assertEquals("", h.exchange("PROXY TCP4 192.0.2.7 10.0."));
        h.channel.advanceTimeBy(1_001, TimeUnit.MILLISECONDS);
        h.channel.runScheduledPendingTasks();
        assertEquals("HTTP/1.1 408 Request Timeout", PipelineHarness.statusLine(h.output()));
        assertFalse(h.channel.isOpen());
        assertTrue(seen.isEmpty());
    }

    @Test
    void aConnectionClosedBeforeItsHeaderIsNotAnError() {
        PipelineHarness h = harness(true);
        h.exchange("PROXY TCP4 192.0.2.7");
        h.channel.close();
        assertTrue(seen.isEmpty());
        assertEquals("", errors.toString(StandardCharsets.UTF_8));
    }

    private static String v2(int versionCommand, int family, String addresses) {
        return V2_SIGNATURE + bytes(versionCommand, family) + port(addresses.length()) + addresses;
    }

    private static String tlv(int type, String value) {
        return bytes(type) + port(value.length()) + value;
    }

    private static String port(int n) {
        return bytes(n >> 8, n & 0xff);
    }

    private static String pad(String text, int length) {
        return text + "\0".repeat(length - text.length());
    }

    /** Bytes as an ISO-8859-1 string, the harness's wire format. */
    private static String bytes(int... values) {
        StringBuilder out = new StringBuilder();
        for (int v : values) {
            out.append((char) (v & 0xff));
        }
        return out.toString();
    }
}
