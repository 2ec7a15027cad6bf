package org.nettyrack.core.push;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;
import org.nettyrack.core.ResponseHeaders;

/** The head an accepted upgrade answers with, built from the application's status and headers. */
class PushHeadTest {
    private static ResponseHeaders headers(String... pairs) {
        ResponseHeaders h = new ResponseHeaders();
        for (int i = 0; i < pairs.length; i += 2) {
            h.add(pairs[i], pairs[i + 1]);
        }
        return h;
    }

    private static List<String> fields(ResponseHeaders h) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < h.size(); i++) {
            out.add(h.name(i) + ": " + h.value(i));
        }
        return out;
    }

    @Test
    void aWebSocketKeepsTheAppsFieldsButNotThoseOfTheHandshakeOrTheFraming() {
        ResponseHeaders app = headers("x-app", "1", "Connection", "close", "upgrade", "h2c", "content-length", "99",
            "Transfer-Encoding", "chunked", "keep-alive", "timeout=5", "sec-websocket-accept", "forged",
            "Sec-WebSocket-Extensions", "permessage-deflate", "sec-websocket-protocol", "chat", "set-cookie", "a=1",
            "set-cookie", "b=2");
        assertEquals(List.of("x-app: 1", "set-cookie: a=1", "set-cookie: b=2"), fields(PushHead.webSocket(app)));
        assertEquals("chat", PushHead.subprotocol(app), "the app's answer picks the subprotocol");
        assertNull(PushHead.subprotocol(headers("x-app", "1")));
    }

    @Test
    void anEventStreamIsAlwaysTextEventStreamAndUncachedUnlessTheAppSaysHow() {
        assertEquals(List.of("x-app: 1", "content-type: text/event-stream", "cache-control: no-cache"),
            fields(PushHead.sse(headers("Content-Type", "text/plain", "x-app", "1", "content-length", "5"))));
        assertEquals(List.of("Cache-Control", "content-type"),
            fields(PushHead.sse(headers("Cache-Control", "private"))).stream().map(f -> f.split(":")[0]).toList(),
            "the app's caching is kept");
    }

    @ParameterizedTest(name = "{0} → {1}")
    @CsvSource({"0, 200", "101, 200", "200, 200", "201, 201", "204, 200", "205, 200", "206, 206", "299, 299"})
    void anEventStreamStatusCanCarryABody(int app, int sent) {
        assertEquals(sent, PushHead.sseStatus(app));
    }
}
