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
    private ControlServer metrics;

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
        start(control, "control endpoint"); // kept before it starts: a stop after a failure closes it
    }

    /** Binds (or takes over) the token-less metrics listener ({@code --metrics-url}); not accepting yet. */
    void openMetrics(ControlEndpoint settings, long idleMillis, ControlActions actions) throws BindException {
        metrics = new ControlServer(settings, idleMillis, actions, transport, true);
        start(metrics, "metrics listener");
    }

    /** Starts server on its socket (bound, or taken over); a failure is a BindException naming what. */
    private void start(ControlServer server, String what) throws BindException {
        try {
            server.start(inherited);
        } catch (Exception e) {
            BindException failure = new BindException(what + ": " + e.getMessage());
            failure.initCause(e);
            throw failure;
        }
    }

    /** Starts accepting on every listener, the control endpoint's and the metrics listener's too. */
    void accept() {
        listeners.accept(connections);
        for (ControlServer own : own()) {
            own.accept();
        }
    }

    /** The control endpoint and the metrics listener, those configured. */
    private List<ControlServer> own() {
        List<ControlServer> own = new ArrayList<>(2);
        if (control != null) {
            own.add(control);
        }
        if (metrics != null) {
            own.add(metrics);
        }
        return own;
    }

    /**
     * Offers every listening socket (the control endpoint's and the metrics listener's last) to the process that will
     * replace this one, over a private unix socket: see {@link Handoff}. Epoll only.
     */
    Handoff handoff(EventLoopGroup acceptors) throws IOException, InterruptedException {
        if (!"epoll".equals(transport.name())) {
            throw new IOException("a hot restart needs Linux's epoll transport; this server runs on " + transport.name());
        }
        List<Integer> fds = new ArrayList<>(listeners.fileDescriptors());
        for (ControlServer own : own()) {
            fds.add(own.fileDescriptor());
        }
        return Handoff.open(acceptors, fds);
    }

    /** Stops accepting, leaving the sockets to the process that took them over. */
    void handOver() throws InterruptedException {
        listeners.handOver(connections);
        for (ControlServer own : own()) {
            own.handOver();
        }
    }

    /** Stops accepting on the listeners (not the control endpoint's, which answers while the server drains). */
    void closeListeners() throws InterruptedException {
        listeners.close();
    }

    void stopControl() throws InterruptedException {
        for (ControlServer own : own()) {
            own.stop();
        }
    }

    /** Open connections of a server by transport: {@code tcp} (TLS included) and {@code unix}. */
    static java.util.Map<String, Integer> byTransport(io.netty.channel.group.ChannelGroup channels) {
        int unix = 0;
        int all = 0;
        for (io.netty.channel.Channel channel : channels) {
            all++;
            if (channel.localAddress() instanceof io.netty.channel.unix.DomainSocketAddress) {
                unix++;
            }
        }
        java.util.Map<String, Integer> open = new java.util.LinkedHashMap<>();
        open.put("tcp", all - unix);
        open.put("unix", unix);
        return open;
    }

    String controlUrl() {
        return control == null ? null : control.url();
    }

    String metricsUrl() {
        return metrics == null ? null : metrics.url();
    }

    List<String> urls() {
        return listeners.urls();
    }

    int firstPort() {
        return listeners.firstPort();
    }
}
