package org.nettyrack.netty.listen;

import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollServerDomainSocketChannel;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.unix.Socket;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.nettyrack.core.config.Bind;

/**
 * Listening sockets this process was given when it started, each to be served by the
 * configured listener at its address instead of a socket bound anew: systemd's, by socket
 * activation ({@link #fromSystemd}: {@code LISTEN_FDS}, {@code LISTEN_PID}), or those of the
 * process this one replaces in a hot restart ({@link Predecessor}). Each is matched to a bind by
 * what the socket itself says it is ({@code getsockname}), so the order they came in does not
 * matter: a unix socket by its path, a TCP one by its address and port (a bind to port 0
 * takes any at its address; 0.0.0.0 and :: are one). Those no bind takes are closed by {@link #closeUntaken}.
 * Linux's epoll transport only: the JDK's own channels cannot be made from a descriptor.
 */
public final class InheritedSockets {
    private static final int SOL_SOCKET = 1;
    private static final int SO_TYPE = 3;
    private static final int SO_ACCEPTCONN = 30;
    private static final int SO_DOMAIN = 39;
    private static final int AF_UNIX = 1;
    private static final int SOCK_STREAM = 1;
    private static final int FIRST_SYSTEMD_FD = 3;

    /** A socket a bind took: the server channel made from it, and whether systemd owns its file. */
    record Taken(ServerChannel channel, boolean fromSystemd) {
    }

    /** One inherited socket: its descriptor and what it listens on (an InetSocketAddress, or a Path). */
    private record Inherited(int fd, Object address) {
    }

    private final List<Inherited> untaken;
    private final boolean fromSystemd;

    private InheritedSockets(List<Inherited> sockets, boolean fromSystemd) {
        this.untaken = sockets;
        this.fromSystemd = fromSystemd;
    }

    public static InheritedSockets none() {
        return new InheritedSockets(new ArrayList<>(), false);
    }

    /**
     * systemd's sockets, when {@code LISTEN_PID} names this process: {@code LISTEN_FDS} of them
     * from descriptor 3 on (sd_listen_fds(3)). None otherwise. Throws {@link IOException}, saying
     * what is wrong, for a count that is not a number or a descriptor that is no listening stream
     * socket.
     */
    public static InheritedSockets fromSystemd(Map<String, String> env, long pid) throws IOException {
        String count = env.get("LISTEN_FDS");
        if (count == null || !String.valueOf(pid).equals(env.get("LISTEN_PID"))) {
            return none();
        }
        int n;
        try {
            n = Integer.parseInt(count.trim());
        } catch (NumberFormatException e) {
            throw new IOException("LISTEN_FDS is not a number: " + count);
        }
        List<Integer> fds = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            fds.add(FIRST_SYSTEMD_FD + i);
        }
        return of(fds, true, "systemd's socket");
    }

    /** Sockets received from another process (see {@link Predecessor}). */
    static InheritedSockets received(List<Integer> fds) throws IOException {
        return of(fds, false, "the socket handed over");
    }

    private static InheritedSockets of(List<Integer> fds, boolean fromSystemd, String what) throws IOException {
        if (!fds.isEmpty() && !Epoll.isAvailable()) {
            throw new IOException("listening sockets from another process need Linux's epoll transport, which is not"
                + " available here (" + Epoll.unavailabilityCause() + ")");
        }
        List<Inherited> sockets = new ArrayList<>();
        for (int fd : fds) {
            sockets.add(inspect(fd, what));
        }
        return new InheritedSockets(sockets, fromSystemd);
    }

    private static Inherited inspect(int fd, String what) throws IOException {
        Socket socket = new Socket(fd); // only read from: the channel made later owns the descriptor
        try {
            if (socket.getIntOpt(SOL_SOCKET, SO_TYPE) != SOCK_STREAM || socket.getIntOpt(SOL_SOCKET, SO_ACCEPTCONN) != 1) {
                throw new IOException(what + " on descriptor " + fd + " is not a listening stream socket");
            }
            if (socket.getIntOpt(SOL_SOCKET, SO_DOMAIN) == AF_UNIX) {
                return new Inherited(fd, Path.of(socket.localDomainSocketAddress().path()).toAbsolutePath().normalize());
            }
            return new Inherited(fd, socket.localAddress());
        } catch (IOException e) {
            throw e.getMessage() != null && e.getMessage().startsWith(what) ? e
                : new IOException(what + " on descriptor " + fd + " cannot be used: " + e.getMessage(), e);
        }
    }

    /** Whether any socket came in. */
    public synchronized boolean any() {
        return !untaken.isEmpty();
    }

    /** Takes the socket at {@code bind}'s address, as a server channel; null when there is none. */
    synchronized Taken take(Bind bind) {
        Iterator<Inherited> it = untaken.iterator();
        while (it.hasNext()) {
            Inherited socket = it.next();
            if (matches(bind, socket.address())) {
                it.remove();
                ServerChannel channel = socket.address() instanceof Path ? new EpollServerDomainSocketChannel(socket.fd())
                    : new EpollServerSocketChannel(socket.fd());
                return new Taken(channel, fromSystemd);
            }
        }
        return null;
    }

    private static boolean matches(Bind bind, Object address) {
        if ("unix".equals(bind.scheme())) {
            return address instanceof Path path && path.equals(Path.of(bind.path()).toAbsolutePath().normalize());
        }
        if (!(address instanceof InetSocketAddress inet) || (bind.port() != 0 && bind.port() != inet.getPort())) {
            return false;
        }
        try {
            InetAddress wanted = InetAddress.getByName(bind.host());
            // a dual-stack socket bound to 0.0.0.0 says it is on ::
            return wanted.equals(inet.getAddress()) || wanted.isAnyLocalAddress() && inet.getAddress().isAnyLocalAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }

    /**
     * Closes every socket no bind took (a listener the configuration no longer has) and says
     * which, as {@code tcp://host:port} or {@code unix:///path}.
     */
    public synchronized List<String> closeUntaken() {
        List<String> closed = new ArrayList<>();
        for (Inherited socket : untaken) {
            closed.add(socket.address() instanceof Path path ? "unix://" + path
                : "tcp://" + ((InetSocketAddress) socket.address()).getHostString() + ":"
                    + ((InetSocketAddress) socket.address()).getPort());
            try {
                new Socket(socket.fd()).close();
            } catch (IOException e) {
                // closed already: nothing to give back
            }
        }
        untaken.clear();
        return closed;
    }
}
