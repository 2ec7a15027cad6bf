package org.nettyrack.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Which request heads may be upgraded, whichever door they came through. */
class UpgradeTest {
    private static final String[] WS = {"Upgrade", "websocket", "Connection", "Upgrade",
        "Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version", "13"};

    private static FakeRequest head(String method, String protocol, String... fields) {
        FakeRequest request = new FakeRequest(method, "/", protocol);
        for (int i = 0; i < fields.length; i += 2) {
            request.header(fields[i], fields[i + 1]);
        }
        return request;
    }

    private static FakeRequest get(String... fields) {
        return head("GET", "HTTP/1.1", fields);
    }

    /** The valid handshake with some values replaced. */
    private static String[] ws(String... replace) {
        String[] fields = WS.clone();
        for (int i = 0; i < replace.length; i += 2) {
            for (int j = 0; j < fields.length; j += 2) {
                if (fields[j].equals(replace[i])) {
                    fields[j + 1] = replace[i + 1];
                }
            }
        }
        return fields;
    }

    static Stream<Arguments> heads() {
        return Stream.of(
            Arguments.of("valid WebSocket handshake", get(WS), Upgrade.WEBSOCKET),
            Arguments.of("names and values in any case",
                get("upgrade", "WebSocket", "CONNECTION", "upgrade", "sec-websocket-key", "k", "SEC-WEBSOCKET-VERSION", "13"),
                Upgrade.WEBSOCKET),
            Arguments.of("Connection: keep-alive, Upgrade (Firefox)", get(ws("Connection", "keep-alive, Upgrade")),
                Upgrade.WEBSOCKET),
            Arguments.of("tokens with spaces around them", get(ws("Upgrade", " websocket ", "Connection", "close ,  upgrade")),
                Upgrade.WEBSOCKET),
            Arguments.of("Upgrade in a second Connection field",
                get(ws("Connection", "keep-alive")).header("Connection", "Upgrade"), Upgrade.WEBSOCKET),
            Arguments.of("websocket in a second Upgrade field",
                get(ws("Upgrade", "h2c")).header("Upgrade", "websocket"), Upgrade.WEBSOCKET),
            Arguments.of("a token that only contains the word", get(ws("Connection", "upgraded")), Upgrade.NONE),
            Arguments.of("no Sec-WebSocket-Key", get("Upgrade", "websocket", "Connection", "Upgrade",
                "Sec-WebSocket-Version", "13"), Upgrade.NONE),
            Arguments.of("version 8", get(ws("Sec-WebSocket-Version", "8")), Upgrade.NONE),
            Arguments.of("no Connection: Upgrade", get(ws("Connection", "keep-alive")), Upgrade.NONE),
            Arguments.of("Upgrade: h2c", get(ws("Upgrade", "h2c")), Upgrade.NONE),
            Arguments.of("POST", head("POST", "HTTP/1.1", WS), Upgrade.NONE),
            Arguments.of("HTTP/1.0", head("GET", "HTTP/1.0", WS), Upgrade.NONE),
            Arguments.of("Accept: text/event-stream", get("Accept", "text/event-stream"), Upgrade.SSE),
            Arguments.of("event-stream among others", get("Accept", "text/html, Text/Event-Stream;q=0.9"), Upgrade.SSE),
            Arguments.of("event-stream over HTTP/1.0", head("GET", "HTTP/1.0", "Accept", "text/event-stream"), Upgrade.SSE),
            Arguments.of("event-stream POST", head("POST", "HTTP/1.1", "Accept", "text/event-stream"), Upgrade.NONE),
            Arguments.of("event-stream in a second Accept field", get("Accept", "text/html").header("Accept",
                "text/event-stream"), Upgrade.NONE),
            Arguments.of("a non-ASCII letter is not its ASCII look-alike", get("Accept", "text/event-\u017Ftream"),
                Upgrade.NONE),
            Arguments.of("a failed WebSocket handshake can still be an event stream",
                get(ws("Sec-WebSocket-Version", "8", "Accept", "x")).header("Accept", "text/event-stream"), Upgrade.SSE),
            Arguments.of("RFC 8441: extended CONNECT for websocket", head("CONNECT", "HTTP/2", "Sec-WebSocket-Version", "13")
                .connectProtocol("websocket"), Upgrade.WEBSOCKET),
            Arguments.of("extended CONNECT, version 8", head("CONNECT", "HTTP/2", "Sec-WebSocket-Version", "8")
                .connectProtocol("websocket"), Upgrade.NONE),
            Arguments.of("extended CONNECT for another protocol", head("CONNECT", "HTTP/2", "Sec-WebSocket-Version", "13")
                .connectProtocol("webtransport"), Upgrade.NONE),
            Arguments.of("plain GET", get("Accept", "text/html"), Upgrade.NONE),
            Arguments.of("plain GET, no headers", get(), Upgrade.NONE));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("heads")
    void detects(String name, FakeRequest head, Upgrade expected) {
        assertEquals(expected, Upgrade.of(head));
    }

    static Stream<Arguments> offers() {
        return Stream.of(
            Arguments.of("a WebSocket handshake", get(WS), List.of("websocket")),
            Arguments.of("several, in order, over fields", get("Upgrade", "foo, bar/2", "Connection", "keep-alive, Upgrade")
                .header("Upgrade", " baz ,"), List.of("foo", "bar/2", "baz")),
            Arguments.of("Connection without upgrade", get("Upgrade", "foo", "Connection", "keep-alive"), List.of()),
            Arguments.of("no Connection", get("Upgrade", "foo"), List.of()),
            Arguments.of("HTTP/1.0 (RFC 9110 7.8: ignored)", head("GET", "HTTP/1.0", "Upgrade", "foo", "Connection", "upgrade"),
                List.of()),
            Arguments.of("a POST may switch too", head("POST", "HTTP/1.1", "Upgrade", "foo", "Connection", "Upgrade"),
                List.of("foo")),
            Arguments.of("no Upgrade", get("Connection", "upgrade"), List.of()),
            Arguments.of("an HTTP/2 extended CONNECT's :protocol", head("CONNECT", "HTTP/2").connectProtocol("echo"),
                List.of("echo")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("offers")
    void listsTheProtocolsOffered(String name, FakeRequest head, List<String> expected) {
        assertEquals(expected, Upgrade.protocols(head));
    }
}
