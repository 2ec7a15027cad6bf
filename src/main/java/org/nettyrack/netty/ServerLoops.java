package org.nettyrack.netty;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.util.concurrent.TimeUnit;
import org.nettyrack.core.config.ServerConfig;
import org.nettyrack.netty.listen.Transport;

/**
 * One server's event loops (one that accepts, and the I/O loops its connections live on) and
 * the bootstrap its listeners share: their sockets' options and each connection's pipeline.
 */
final class ServerLoops {
    final EventLoopGroup acceptors;
    final EventLoopGroup io;
    final ServerBootstrap bootstrap;

    ServerLoops(ServerConfig config, Transport transport, ChannelHandler pipeline) {
        acceptors = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("nettyrack-accept", true),
            transport.ioHandlerFactory());
        io = new MultiThreadIoEventLoopGroup(ioThreads(config), new DefaultThreadFactory("nettyrack-io", true),
            transport.ioHandlerFactory());
        bootstrap = new ServerBootstrap()
            .group(acceptors, io)
            .channel(transport.serverChannel())
            .option(ChannelOption.SO_BACKLOG, 1024)
            .option(ChannelOption.SO_REUSEADDR, true)
            .childOption(ChannelOption.TCP_NODELAY, true)
            .childOption(ChannelOption.ALLOW_HALF_CLOSURE, true)
            .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(32 * 1024, 64 * 1024))
            .childHandler(pipeline);
    }

    /**
     * One event loop per core unless configured: Netty's own default (two per core) measured
     * slower here, since the loops compete with the worker threads for the same cores.
     */
    private static int ioThreads(ServerConfig config) {
        return config.workers().ioThreads() > 0 ? config.workers().ioThreads() : Runtime.getRuntime().availableProcessors();
    }

    /** Ends the loops, each within a second or two. */
    void shutdown() throws InterruptedException {
        io.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(2, TimeUnit.SECONDS);
        acceptors.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(2, TimeUnit.SECONDS);
    }
}
