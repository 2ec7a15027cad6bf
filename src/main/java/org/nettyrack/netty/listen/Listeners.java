package org.nettyrack.netty.listen;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.bootstrap.ServerBootstrapConfig;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.ServerChannel;
import io.netty.channel.unix.UnixChannel;
import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.nettyrack.core.config.Bind;

/**
 * The listening sockets of one server, in the order of its binds, through their life:
 * <pre>
 * open (bound here, or taken over from {@link InheritedSockets}) → accepting → handed over | closed
 * </pre>
 * A listener opens without accepting ({@code AUTO_READ} off): connections wait in the kernel's
 * backlog until {@link #accept} (after the application loaded and warmed up), and then under
 * {@link ConnectionLimit}. {@link #handOver} stops accepting but leaves the sockets open: a new
 * process holds them too and accepts from the same backlog, and this process's copies go when
 * it exits. {@link #close} closes them. A unix socket bound here has its file deleted by Netty's
 * channel on close; one taken over has no such channel, so its file is deleted here, unless
 * systemd made it.
 */
public final class Listeners {
    /** One listener: the channel, and whether closing it is to delete a socket file Netty would not. */
    private record Listener(Bind bind, Channel channel, Path fileToDelete) {
    }

    private final List<Listener> open = new ArrayList<>();
    private boolean handedOver;

    /**
     * Opens {@code bind}: takes the inherited socket at its address when there is one, else binds
     * it with {@code bootstrap}. Returns whether it was taken over. Throws {@link BindException}
     * with one sentence on failure.
     */
    public boolean open(Bind bind, ServerBootstrap bootstrap, Transport transport, InheritedSockets inherited)
        throws BindException, InterruptedException {
        ServerBootstrap waiting = bootstrap.clone().option(ChannelOption.AUTO_READ, false);
        InheritedSockets.Taken taken = inherited.take(bind);
        if (taken != null) {
            Channel channel = adopt(waiting, transport, taken.channel(), bind);
            boolean unix = "unix".equals(bind.scheme());
            open.add(new Listener(bind, channel, unix && !taken.fromSystemd() ? Path.of(bind.path()).toAbsolutePath() : null));
            return true;
        }
        Channel channel = "unix".equals(bind.scheme()) ? UnixListeners.bind(transport, waiting, bind)
            : bindTcp(waiting, bind);
        open.add(new Listener(bind, channel, null));
        return false;
    }

    private static Channel adopt(ServerBootstrap bootstrap, Transport transport, ServerChannel channel,
                                 Bind bind) throws BindException, InterruptedException {
        ServerBootstrap adopting = new ServerBootstrap().channelFactory(() -> channel);
        if ("unix".equals(bind.scheme())) {
            UnixListeners.like(bootstrap, adopting, transport, bind);
        } else {
            ServerBootstrapConfig base = bootstrap.config();
            adopting.group(base.group(), base.childGroup()).childHandler(base.childHandler());
            base.options().forEach((option, value) -> UnixListeners.option(adopting, option, value));
            base.childOptions().forEach((option, value) -> UnixListeners.childOption(adopting, option, value));
        }
        try {
            return adopting.register().sync().channel();
        } catch (Exception e) {
            if (!channel.isRegistered()) {
                channel.unsafe().closeForcibly();
            }
            BindException failure = new BindException("cannot take over the inherited socket for " + bind.url() + ": "
                + e.getMessage());
            failure.initCause(e);
            throw failure;
        }
    }

    private static Channel bindTcp(ServerBootstrap bootstrap, Bind bind) throws BindException, InterruptedException {
        try {
            return bootstrap.bind(bind.host(), bind.port()).sync().channel();
        } catch (Exception e) {
            BindException failure = new BindException(describe(bind.host(), bind.port(), e));
            failure.initCause(e);
            throw failure;
        }
    }

    /** Starts accepting on every listener, without a cap (the control endpoint's). */
    public synchronized void accept() {
        if (!handedOver) {
            open.forEach(listener -> listener.channel().config().setAutoRead(true));
        }
    }

    /** Starts accepting on every listener, under the connection cap. */
    public synchronized void accept(ConnectionLimit limit) {
        if (handedOver) {
            return;
        }
        for (Listener listener : open) {
            limit.listen(listener.channel());
        }
    }

    /**
     * Stops accepting and leaves every socket open for the process that took them over: each
     * channel leaves its event loop (so this process's epoll no longer watches the socket) and
     * is never closed here, so nothing deletes a socket file the new process serves. The limit
     * (none for the control endpoint) forgets them.
     */
    public synchronized void handOver(ConnectionLimit limit) throws InterruptedException {
        if (limit != null) {
            limit.unlisten();
        }
        for (Listener listener : open) {
            if (listener.channel().isRegistered()) {
                listener.channel().deregister().await(1, TimeUnit.SECONDS);
            }
        }
        handedOver = true;
    }

    /** Closes every listener (none after {@link #handOver}): nothing more is accepted. */
    public synchronized void close() throws InterruptedException {
        if (handedOver) {
            return;
        }
        for (Listener listener : open) {
            listener.channel().close().await(1, TimeUnit.SECONDS);
            if (listener.fileToDelete() != null) {
                try {
                    Files.deleteIfExists(listener.fileToDelete());
                } catch (IOException e) {
                    // the file's directory went away, or its mode changed: nothing left to clean up
                }
            }
        }
    }

    /** The file descriptors of the listening sockets, in bind order (epoll only: the others have none). */
    public synchronized List<Integer> fileDescriptors() {
        List<Integer> fds = new ArrayList<>();
        for (Listener listener : open) {
            if (!(listener.channel() instanceof UnixChannel unix)) {
                throw new IllegalStateException("the " + listener.channel().getClass().getSimpleName()
                    + " transport cannot hand its sockets over");
            }
            fds.add(unix.fd().intValue());
        }
        return fds;
    }

    /** The URLs served, with the ports actually bound (port 0 resolved); unix:///path for a socket file. */
    public synchronized List<String> urls() {
        List<String> urls = new ArrayList<>();
        for (Listener listener : open) {
            Bind bind = listener.bind();
            urls.add("unix".equals(bind.scheme()) ? bind.url() : bind.withPort(port(listener.channel())).url());
        }
        return urls;
    }

    /** The first listener's port (0 when it is a unix socket, or none is open). */
    public synchronized int firstPort() {
        return open.isEmpty() ? 0 : port(open.get(0).channel());
    }

    private static int port(Channel channel) {
        return channel.localAddress() instanceof InetSocketAddress inet ? inet.getPort() : 0;
    }

    /** "HOST:PORT is already in use", or another sentence about why a TCP address could not be bound. */
    private static String describe(String host, int port, Exception e) {
        String address = host + ":" + port;
        String message = String.valueOf(e.getMessage());
        if (message.contains("in use")) {
            return address + " is already in use";
        }
        if (message.contains("assign") || e instanceof java.nio.channels.UnresolvedAddressException) {
            return "cannot listen on " + address + ": no such local address";
        }
        return "cannot listen on " + address + ": " + message;
    }
}
