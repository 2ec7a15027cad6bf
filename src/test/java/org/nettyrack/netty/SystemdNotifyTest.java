package org.nettyrack.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netty.channel.epoll.Epoll;
import io.netty.channel.unix.DomainDatagramSocketAddress;
import io.netty.channel.unix.DomainSocketAddress;
import io.netty.channel.unix.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** sd_notify's datagrams reach the socket $NOTIFY_SOCKET names, a file or an abstract one. */
class SystemdNotifyTest {
    @TempDir
    Path dir;

    private static String receive(Socket socket) throws Exception {
        ByteBuffer in = ByteBuffer.allocateDirect(512);
        DomainDatagramSocketAddress from = socket.recvFromDomainSocket(in, 0, in.capacity());
        assertTrue(from != null, "the datagram arrived");
        byte[] bytes = new byte[from.receivedAmount()];
        in.get(0, bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    @Test
    void sendsTheStateToASocketFile() throws Exception {
        assumeTrue(Epoll.isAvailable());
        String path = dir.resolve("notify").toString();
        Socket systemd = Socket.newSocketDomainDgram();
        try {
            systemd.bind(new DomainSocketAddress(path));
            SystemdNotify.fromEnvironment(path).tell("READY=1\nMAINPID=42");
            assertEquals("READY=1\nMAINPID=42", receive(systemd));
        } finally {
            systemd.close();
        }
    }

    @Test
    void sendsToAnAbstractSocketNamedWithAnAt() throws Exception {
        assumeTrue(Epoll.isAvailable());
        String name = "nettyrack-test-" + UUID.randomUUID();
        Socket systemd = Socket.newSocketDomainDgram();
        try {
            systemd.bind(new DomainSocketAddress("\0" + name));
            SystemdNotify.fromEnvironment("@" + name).tell("STOPPING=1");
            assertEquals("STOPPING=1", receive(systemd));
        } finally {
            systemd.close();
        }
    }

    @Test
    void noSocketNoNotifier() {
        assertNull(SystemdNotify.fromEnvironment(null));
        assertNull(SystemdNotify.fromEnvironment(""));
        assertTrue(SystemdNotify.monotonicMicros().matches("MONOTONIC_USEC=\\d+"));
    }
}
