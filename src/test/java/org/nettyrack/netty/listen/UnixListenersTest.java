package org.nettyrack.netty.listen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.BindException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.nettyrack.core.RackHandler;
import org.nettyrack.core.ResponseHeaders;
import org.nettyrack.core.config.Bind;
import org.nettyrack.core.config.ServerConfig;
import org.nettyrack.netty.NettyServer;

/**
 * NettyServer on unix:// binds, on both transports (native epoll, and NIO through the JDK's
 * unix domain sockets), with the JDK's own unix socket client speaking HTTP/1.1.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS) // the unix socket client's blocking reads have no timeout of their own
class UnixListenersTest {
    @TempDir
    Path dir;
    private final List<NettyServer> servers = new ArrayList<>();

    /** Answers with the addresses the request reports. */
    private static final RackHandler APP = (request, sink) -> {
        byte[] body = (request.remoteAddress() + " " + request.localAddress()).getBytes(StandardCharsets.US_ASCII);
        sink.respond(200, new ResponseHeaders(), body, 0, body.length);
    };

    @AfterEach
    void stopAll() throws InterruptedException {
        for (NettyServer server : servers) {
            server.stop();
        }
    }

    private NettyServer start(String transport, Path socket, Map<String, String> params) throws Exception {
        NettyServer server = create(transport, socket, params);
        server.start();
        return server;
    }

    private NettyServer create(String transport, Path socket, Map<String, String> params) {
        ServerConfig config = ServerConfig.builder()
            .bind(new Bind("unix", null, 0, socket.toString(), params)).threads(1, 2).build();
        String previous = System.setProperty("nettyrack.nio", String.valueOf("nio".equals(transport)));
        try {
            NettyServer server = new NettyServer(config, APP);
            servers.add(server);
            assertEquals(transport, server.transport());
            return server;
        } finally {
            if (previous == null) {
                System.clearProperty("nettyrack.nio");
            } else {
                System.setProperty("nettyrack.nio", previous);
            }
        }
    }

    private static String get(Path socket) throws IOException {
        try (SocketChannel client = SocketChannel.open(UnixDomainSocketAddress.of(socket))) {
            client.write(ByteBuffer.wrap("GET / HTTP/1.1\r\nhost: app\r\nconnection: close\r\n\r\n"
                .getBytes(StandardCharsets.US_ASCII)));
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteBuffer buffer = ByteBuffer.allocate(4096);
            while (client.read(buffer) >= 0) {
                out.write(buffer.array(), 0, buffer.position());
                buffer.clear();
            }
            return out.toString(StandardCharsets.US_ASCII);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"epoll", "nio"})
    void servesHttpOnTheSocketAndRemovesItsFileOnStop(String transport) throws Exception {
        Path socket = dir.resolve("app.sock");
        NettyServer server = start(transport, socket, Map.of());
        assertEquals(List.of("unix://" + socket), server.urls());
        assertEquals(0, server.port());
        String response = get(socket);
        assertTrue(response.startsWith("HTTP/1.1 200 OK\r\n"), response);
        assertTrue(response.endsWith("\r\n\r\n127.0.0.1 localhost"), response);
        server.stop();
        assertFalse(Files.exists(socket, java.nio.file.LinkOption.NOFOLLOW_LINKS));
    }

    @ParameterizedTest
    @ValueSource(strings = {"epoll", "nio"})
    void replacesAStaleSocketFile(String transport) throws Exception {
        Path socket = dir.resolve("stale.sock");
        try (ServerSocketChannel dead = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            dead.bind(UnixDomainSocketAddress.of(socket));
        } // closed: the file stays, nobody listens
        assertTrue(Files.exists(socket));
        start(transport, socket, Map.of());
        assertTrue(get(socket).startsWith("HTTP/1.1 200 OK\r\n"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"epoll", "nio"})
    void refusesAPathALiveServerAnswersOn(String transport) throws Exception {
        Path socket = dir.resolve("live.sock");
        start(transport, socket, Map.of());
        NettyServer second = create(transport, socket, Map.of());
        BindException refused = assertThrows(BindException.class, second::start);
        assertEquals("unix://" + socket + " is in use by another server", refused.getMessage());
        assertTrue(get(socket).startsWith("HTTP/1.1 200 OK\r\n"), "the first server still answers");
    }

    @ParameterizedTest
    @ValueSource(strings = {"epoll", "nio"})
    void refusesAFileThatIsNoSocketAndLeavesIt(String transport) throws Exception {
        Path file = dir.resolve("notes.txt");
        Files.writeString(file, "keep me");
        NettyServer server = create(transport, file, Map.of());
        BindException refused = assertThrows(BindException.class, server::start);
        assertEquals("unix://" + file + " exists and is not a socket; remove it or choose another path", refused.getMessage());
        assertEquals("keep me", Files.readString(file));
    }

    @ParameterizedTest
    @ValueSource(strings = {"epoll", "nio"})
    void appliesTheModeParam(String transport) throws Exception {
        Path socket = dir.resolve("mode.sock");
        start(transport, socket, Map.of("mode", "0660", "backlog", "16"));
        assertEquals("rw-rw----", PosixFilePermissions.toString(Files.getPosixFilePermissions(socket)));
        assertTrue(get(socket).startsWith("HTTP/1.1 200 OK\r\n"));
    }
}
