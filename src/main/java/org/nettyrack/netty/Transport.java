package org.nettyrack.netty;

import io.netty.channel.IoHandlerFactory;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;

/** The socket implementation: native epoll where Linux offers it, Java NIO everywhere else. */
record Transport(String name, IoHandlerFactory ioHandlerFactory, Class<? extends ServerChannel> serverChannel) {
    static Transport best() {
        if (!Boolean.getBoolean("nettyrack.nio") && Epoll.isAvailable()) {
            return new Transport("epoll", EpollIoHandler.newFactory(), EpollServerSocketChannel.class);
        }
        return new Transport("nio", NioIoHandler.newFactory(), NioServerSocketChannel.class);
    }
}
