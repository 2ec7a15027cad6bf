package org.nettyrack.netty.listen;

import io.netty.channel.Channel;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerDomainSocketChannel;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerDomainSocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.channel.unix.DomainSocketAddress;
import java.net.SocketAddress;
import java.net.UnixDomainSocketAddress;
import java.nio.file.Path;

/**
 * The socket implementation: native epoll where Linux offers it, Java NIO everywhere else.
 * Each has its server channel for TCP and for unix domain sockets (NIO's through the JDK's
 * {@link UnixDomainSocketAddress}, Java 16+), registered on the same event loops, and a TCP
 * client channel (the warm-up's).
 */
public record Transport(String name, IoHandlerFactory ioHandlerFactory, Class<? extends ServerChannel> serverChannel,
                 Class<? extends ServerChannel> domainServerChannel, Class<? extends Channel> socketChannel) {
    public static Transport best() {
        if (!Boolean.getBoolean("nettyrack.nio") && Epoll.isAvailable()) {
            return new Transport("epoll", EpollIoHandler.newFactory(), EpollServerSocketChannel.class,
                EpollServerDomainSocketChannel.class, EpollSocketChannel.class);
        }
        return new Transport("nio", NioIoHandler.newFactory(), NioServerSocketChannel.class,
            NioServerDomainSocketChannel.class, NioSocketChannel.class);
    }

    /** The address {@link #domainServerChannel} binds for a socket file. */
    SocketAddress domainAddress(Path path) {
        return "epoll".equals(name) ? new DomainSocketAddress(path.toString()) : UnixDomainSocketAddress.of(path);
    }
}
