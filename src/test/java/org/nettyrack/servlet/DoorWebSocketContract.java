package org.nettyrack.servlet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * rack.upgrade to a WebSocket over the container's Jakarta WebSocket support: an echo to the JDK's
 * client and to Python's websockets, 1008 for a client that does not read past max-push-queue,
 * 1009 past max-message-size, a ping when idle, and 426 for a plain request to a WebSocket route.
 */
abstract non-sealed class DoorWebSocketContract extends DoorConcern {
    DoorWebSocketContract(ServletDoorContract door) {
        super(door);
    }

    @Test
    void webSocketEcho() throws Exception {
        Messages messages = new Messages();
        WebSocket socket = client.newWebSocketBuilder().buildAsync(ws("ws"), messages).get(30, TimeUnit.SECONDS);
        assertEquals("open /app/ws", messages.next());
        socket.sendText("héllo", true).get(30, TimeUnit.SECONDS);
        assertEquals("echo: héllo", messages.next());
        socket.sendText("bye", true).get(30, TimeUnit.SECONDS);
        assertEquals("echo: bye", messages.next());
        assertEquals("closed 1000", messages.next());
    }

    /** A third-party client: Python's websockets, from the toolchain's venv. */
    @Test
    void pythonWebSocketsClientEchoes() throws Exception {
        String script = String.join("\n",
            "import sys",
            "from websockets.sync.client import connect",
            "with connect(sys.argv[1], open_timeout=30) as ws:",
            "    print(ws.recv(timeout=30))",
            "    ws.send('from python')",
            "    print(ws.recv(timeout=30))");
        Process python = new ProcessBuilder(".toolchain/python/bin/python", "-c", script, ws("ws").toString())
            .redirectErrorStream(true).start();
        assertTrue(python.waitFor(60, TimeUnit.SECONDS), "python did not finish");
        assertEquals("open /app/ws\necho: from python\n", new String(python.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        assertEquals(0, python.exitValue());
    }

    @Test
    void clientThatDoesNotReadIsClosedWith1008AtTheQueueLimit() throws Exception {
        Messages messages = new Messages(false);
        WebSocket socket = client.newWebSocketBuilder().buildAsync(ws("flood"), messages).get(30, TimeUnit.SECONDS);
        assertEquals("refused write", send(HttpRequest.newBuilder(url("flood-result"))).body().replaceAll(" \\d+,.*", ""));
        socket.request(Long.MAX_VALUE);
        String last;
        do {
            last = messages.next();
        } while (last.startsWith("xxxx"));
        assertEquals("closed 1008", last);
    }

    @Test
    void messageOverMaxMessageSizeIsClosedWith1009() throws Exception {
        Messages messages = new Messages();
        WebSocket socket = client.newWebSocketBuilder().buildAsync(ws("ws"), messages).get(30, TimeUnit.SECONDS);
        assertEquals("open /app/ws", messages.next());
        socket.sendText("y".repeat(5000), true).get(30, TimeUnit.SECONDS); // max-message-size 4k
        assertEquals("closed 1009", messages.next());
    }

    @Test
    void idleWebSocketIsPinged() throws Exception {
        Messages messages = new Messages();
        WebSocket socket = client.newWebSocketBuilder().buildAsync(ws("pinged"), messages).get(30, TimeUnit.SECONDS);
        assertEquals("open", messages.next());
        assertEquals("ping", messages.next()); // client.timeout = 0.2 in on_open
        socket.sendClose(WebSocket.NORMAL_CLOSURE, "").get(30, TimeUnit.SECONDS);
    }

    @Test
    void plainRequestToAWebSocketRouteIsNotUpgraded() throws Exception {
        HttpResponse<String> response = send(HttpRequest.newBuilder(url("ws")));
        assertEquals(426, response.statusCode());
    }
}
