package org.nettyrack.netty;

import io.netty.channel.epoll.Epoll;
import io.netty.channel.unix.Socket;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * sd_notify(3): a datagram to the unix socket {@code $NOTIFY_SOCKET} names, telling systemd
 * (a unit of {@code Type=notify}) how the service is doing: {@code READY=1}, {@code RELOADING=1},
 * {@code MAINPID=...}, {@code STOPPING=1}, {@code STATUS=...}, one per line. A name starting with
 * {@code @} is in the abstract namespace. The JDK sends no unix datagrams, Netty's epoll
 * transport does: without it (not Linux), there is no systemd to tell either.
 */
public final class SystemdNotify {
    private final String socket;

    private SystemdNotify(String socket) {
        this.socket = socket;
    }

    /** The notifier for {@code $NOTIFY_SOCKET}, or null when it is not set (not run by systemd). */
    public static SystemdNotify fromEnvironment(String notifySocket) {
        return notifySocket == null || notifySocket.isEmpty() ? null : new SystemdNotify(notifySocket);
    }

    /** Sends the state lines; throws {@link IOException} saying why when they cannot be sent. */
    public void tell(String state) throws IOException {
        if (!Epoll.isAvailable()) {
            throw new IOException("cannot notify systemd without Linux's epoll transport (" + Epoll.unavailabilityCause() + ")");
        }
        byte[] path = socket.getBytes(StandardCharsets.UTF_8);
        if (path[0] == '@') {
            path[0] = 0; // the abstract namespace
        }
        byte[] text = state.getBytes(StandardCharsets.UTF_8);
        ByteBuffer datagram = ByteBuffer.allocateDirect(text.length).put(text).flip();
        Socket out = Socket.newSocketDomainDgram();
        try {
            out.sendToDomainSocket(datagram, 0, text.length, path);
        } finally {
            out.close();
        }
    }

    /** {@code MONOTONIC_USEC=...}: the clock systemd wants beside {@code RELOADING=1} (CLOCK_MONOTONIC, as nanoTime is on Linux). */
    public static String monotonicMicros() {
        return "MONOTONIC_USEC=" + System.nanoTime() / 1_000;
    }

    @Override
    public String toString() {
        return "systemd at " + socket;
    }
}
