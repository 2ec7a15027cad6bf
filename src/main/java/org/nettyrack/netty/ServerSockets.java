package org.nettyrack.netty;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.EventLoopGroup;
import java.io.IOException;
import java.net.BindException;
import java.util.ArrayList;
import java.util.List;
import org.nettyrack.core.config.Bind;
import org.nettyrack.core.config.ControlEndpoint;
import org.nettyrack.core.ops.ControlActions;
import org.nettyrack.netty.control.ControlServer;
import org.nettyrack.netty.listen.ConnectionLimit;
import org.nettyrack.netty.listen.Handoff;
import org.nettyrack.netty.listen.InheritedSockets;
import org.nettyrack.netty.listen.Listeners;
import org.nettyrack.netty.listen.Transport;

/**
 * Where one server listens: its listeners (tcp, ssl, unix; bound here, or taken over from
 * systemd or the process this one replaces), the cap on the connections they accept, and the
 * control endpoint's listener. {@link NettyServer} moves them through its life: opened without
 * accepting, accepting, then handed to a new process ({@link #handoff}, {@link #handOver}) or
 * closed.
 */
final class ServerSockets {
    private final Transport transport;
    private final Listeners listeners = new Listeners();
    private final ConnectionLimit connections;
    private InheritedSockets inherited = InheritedSockets.none();
    private ControlServer control;

    ServerSockets(Transport transport, int connectionCap) {
        this.transport = transport;
        this.connections = new ConnectionLimit(connectionCap);
    }

    /** Sockets this process was given, each serving the bind at its address: before {@link #open}. */
    void inherit(InheritedSockets sockets) {
        inherited = sockets;
    }

    /** The cap every connection accepted counts against ({@code --max-connections}). */
    ConnectionLimit connections() {
        return connections;
    }

    /** Binds (or takes over) {@code bind}'s listener without accepting; throws naming an address that is taken. */
    void open(Bind bind, ServerBootstrap served) throws BindException, InterruptedException {
        listeners.open(bind, served, transport, inherited);
    }

    /** Binds (or takes over) the control endpoint's listener, serving {@code actions}; not accepting yet. */
    void openControl(ControlEndpoint settings, long idleMillis, ControlActions actions) throws BindException {
        control = new ControlServer(settings, idleMillis, actions, transport);
        try {
            control.start(inherited);
        } catch (Exception e) {
            BindException failure = new BindException("control endpoint: " + e.getMessage());
            failure.initCause(e);
            throw failure;
        }
    }

    /** Starts accepting on every listener, the control endpoint's too. */
    void accept() {
        listeners.accept(connections);
        if (control != null) {
            control.accept();
        }
    }

    /**
     * Offers every listening socket (the control endpoint's last) to the process that will
     * replace this one, over a private unix socket: see {@link Handoff}. Epoll only.
     */
    Handoff handoff(EventLoopGroup acceptors) throws IOException, InterruptedException {
        if (!"epoll".equals(transport.name())) {
            throw new IOException("a hot restart needs Linux's epoll transport; this server runs on " + transport.name());
        }
        List<Integer> fds = new ArrayList<>(listeners.fileDescriptors());
        if (control != null) {
            fds.add(control.fileDescriptor());
        }
        return Handoff.open(acceptors, fds);
    }

    /** Stops accepting, leaving the sockets to the process that took them over. */
    void handOver() throws InterruptedException {
        listeners.handOver(connections);
        if (control != null) {
            control.handOver();
        }
    }

    /** Stops accepting on the listeners (not the control endpoint's, which answers while the server drains). */
    void closeListeners() throws InterruptedException {
        listeners.close();
    }

    void stopControl() throws InterruptedException {
        if (control != null) {
            control.stop();
        }
    }

    String controlUrl() {
        return control == null ? null : control.url();
    }

    List<String> urls() {
        return listeners.urls();
    }

    int firstPort() {
        return listeners.firstPort();
    }
}
