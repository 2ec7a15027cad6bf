package org.nettyrack.netty.listen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netty.channel.epoll.Epoll;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.URI;
import java.net.UnixDomainSocketAddress;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.nettyrack.core.RackHandler;
import org.nettyrack.core.ResponseHeaders;
import org.nettyrack.core.config.Bind;
import org.nettyrack.core.config.ServerConfig;
import org.nettyrack.netty.NettyServer;

/**
 * A hot restart's hand-over inside one JVM: an "old" server gives its listening sockets (TCP,
 * unix, the control endpoint's) over a private unix socket to a "new" one, which serves on the
 * very same sockets once the old one hands over; and the ways that can fail.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HandoffTest {
    @TempDir
    Path dir;
    private NettyServer old;
    private NettyServer successor;
    private final HttpClient client = HttpClient.newHttpClient();

    private static RackHandler answering(String who) {
        return (request, sink) -> {
            byte[] body = who.getBytes(StandardCharsets.US_ASCII);
            sink.respond(200, new ResponseHeaders(), body, 0, body.length);
        };
    }

    @BeforeEach
    void epollOnly() {
        assumeTrue(Epoll.isAvailable(), "hand-over needs epoll");
    }

    @AfterEach
    void stopBoth() throws Exception {
        if (successor != null) {
            successor.stop();
        }
        if (old != null) {
            old.stop();
        }
    }

    private ServerConfig config() {
        return ServerConfig.builder().bind("127.0.0.1", 0).bind("0.0.0.0", 0)
            .bind(new Bind("unix", null, 0, dir.resolve("app.sock").toString(), Map.of()))
            .control("127.0.0.1", 0, null).threads(1, 1).shutdownTimeoutMillis(2_000).build();
    }

    private String get(String url) throws Exception {
        return client.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString()).body();
    }

    private static String overUnix(Path socket) throws IOException {
        try (SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            ch.connect(UnixDomainSocketAddress.of(socket));
            ch.write(ByteBuffer.wrap("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.US_ASCII)));
            ByteBuffer in = ByteBuffer.allocate(4096);
            while (ch.read(in) >= 0) {
                // until the server closes
            }
            String response = new String(in.array(), 0, in.position(), StandardCharsets.US_ASCII);
            return response.substring(response.indexOf("\r\n\r\n") + 4);
        }
    }

    @Test
    void theNewServerServesOnTheSameSocketsOnceTheOldHandsOver() throws Exception {
        old = new NettyServer(config(), answering("old"));
        old.start();
        String url = old.urls().get(0);
        String control = old.controlUrl().replace("tcp://", "http://");
        assertEquals("old", get(url));

        Handoff handoff = old.handoff();
        try (Predecessor predecessor = Predecessor.connect(handoff.socket(), handoff.count(), 5_000)) {
            successor = new NettyServer(config(), answering("new"));
            successor.inherit(predecessor.sockets());
            successor.open();
            assertEquals(List.of(), predecessor.sockets().closeUntaken(), "every socket found its bind");
            assertEquals(old.urls(), successor.urls(), "the same ports, not new ones");
            successor.serve();
            predecessor.ready();
            assertEquals(ProcessHandle.current().pid(), handoff.outcome().get(10, TimeUnit.SECONDS));
        } finally {
            handoff.close();
        }
        old.handOver();
        assertTrue(old.stop());
        for (int i = 0; i < 5; i++) {
            assertEquals("new", get(url));
            assertEquals("new", get(successor.urls().get(1).replace("0.0.0.0", "127.0.0.1")));
            assertEquals("new", overUnix(dir.resolve("app.sock")));
        }
        assertTrue(Files.exists(dir.resolve("app.sock")), "the old server's stop left the socket file to the new one");
        assertTrue(get(control + "/health").contains("\"phase\":\"serving\""));
        assertTrue(successor.stop());
        assertFalse(Files.exists(dir.resolve("app.sock")), "the new server's own stop removes it");
    }

    @Test
    void aNewProcessThatCannotServeSaysWhyAndTheOldKeepsServing() throws Exception {
        old = new NettyServer(config(), answering("old"));
        old.start();
        Handoff handoff = old.handoff();
        try (Predecessor predecessor = Predecessor.connect(handoff.socket(), handoff.count(), 5_000)) {
            predecessor.failed("syntax error in config.ru:3: unexpected end-of-input");
            ExecutionException e = assertThrows(ExecutionException.class, () -> handoff.outcome().get(10, TimeUnit.SECONDS));
            assertInstanceOf(Handoff.SuccessorFailed.class, e.getCause());
            assertEquals("syntax error in config.ru:3: unexpected end-of-input", e.getCause().getMessage());
            predecessor.sockets().closeUntaken();
        } finally {
            handoff.close();
        }
        assertEquals("old", get(old.urls().get(0)));
        assertEquals("old", overUnix(dir.resolve("app.sock")));
    }

    @Test
    void aNewProcessThatGoesAwayBeforeServingIsAFailure() throws Exception {
        old = new NettyServer(config(), answering("old"));
        old.start();
        Handoff handoff = old.handoff();
        try {
            Predecessor predecessor = Predecessor.connect(handoff.socket(), handoff.count(), 5_000);
            predecessor.sockets().closeUntaken();
            predecessor.close();
            ExecutionException e = assertThrows(ExecutionException.class, () -> handoff.outcome().get(10, TimeUnit.SECONDS));
            assertEquals("the new process went away before it served", e.getCause().getMessage());
        } finally {
            handoff.close();
        }
        assertFalse(Files.exists(Path.of(handoff.socket()).getParent()), "the private directory is gone");
        assertEquals("old", get(old.urls().get(0)));
    }

    @Test
    void noOneIsListeningIsOneSentence() {
        IOException e = assertThrows(IOException.class,
            () -> Predecessor.connect(dir.resolve("nobody").toString(), 2, 1_000));
        assertTrue(e.getMessage().startsWith("cannot reach the old process at " + dir.resolve("nobody")), e.getMessage());
    }

    @Test
    void systemdsSocketsAreTheirsOnlyWhenTheyNameThisProcess() throws Exception {
        long pid = ProcessHandle.current().pid();
        assertFalse(InheritedSockets.fromSystemd(Map.of("LISTEN_FDS", "2", "LISTEN_PID", "1"), pid).any());
        assertFalse(InheritedSockets.fromSystemd(Map.of(), pid).any());
        IOException e = assertThrows(IOException.class,
            () -> InheritedSockets.fromSystemd(Map.of("LISTEN_FDS", "two", "LISTEN_PID", String.valueOf(pid)), pid));
        assertEquals("LISTEN_FDS is not a number: two", e.getMessage());
    }
}
