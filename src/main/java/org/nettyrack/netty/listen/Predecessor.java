package org.nettyrack.netty.listen;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollChannelOption;
import io.netty.channel.epoll.EpollDomainSocketChannel;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.unix.DomainSocketAddress;
import io.netty.channel.unix.DomainSocketReadMode;
import io.netty.channel.unix.FileDescriptor;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The process this one replaces in a hot restart, as the new process sees it ({@link Handoff}
 * is the other side). The old process started this one with the path of a private unix socket
 * and the number of listening sockets it has; this side connects, receives them (SCM_RIGHTS,
 * one descriptor a message), and keeps the connection to say, once, how its boot ended:
 * <pre>
 * new → old:  connect
 * old → new:  N descriptors
 * new → old:  "ready PID\n" once serving, or "failed REASON\n"
 * </pre>
 * {@link #sockets} are then matched to the configured binds like systemd's.
 */
public final class Predecessor implements AutoCloseable {
    private final EventLoopGroup loop;
    private final Channel channel;
    private final InheritedSockets sockets;

    private Predecessor(EventLoopGroup loop, Channel channel, InheritedSockets sockets) {
        this.loop = loop;
        this.channel = channel;
        this.sockets = sockets;
    }

    /**
     * Connects to the old process at {@code path} and receives its {@code count} listening
     * sockets, within {@code timeoutMillis}; throws {@link IOException} saying what went wrong.
     */
    public static Predecessor connect(String path, int count, long timeoutMillis) throws IOException, InterruptedException {
        if (!Epoll.isAvailable()) {
            throw new IOException("a hot restart needs Linux's epoll transport (" + Epoll.unavailabilityCause() + ")");
        }
        EventLoopGroup loop = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("nettyrack-handoff", true),
            EpollIoHandler.newFactory());
        List<Integer> fds = new ArrayList<>();
        CompletableFuture<List<Integer>> all = new CompletableFuture<>();
        try {
            Channel channel = new Bootstrap().group(loop).channel(EpollDomainSocketChannel.class)
                .option(EpollChannelOption.DOMAIN_SOCKET_READ_MODE, DomainSocketReadMode.FILE_DESCRIPTORS)
                .handler(new ChannelInboundHandlerAdapter() {
                    @Override
                    public void channelRead(ChannelHandlerContext ctx, Object msg) {
                        fds.add(((FileDescriptor) msg).intValue());
                        if (fds.size() == count) {
                            all.complete(fds);
                        }
                    }

                    @Override
                    public void channelInactive(ChannelHandlerContext ctx) {
                        all.completeExceptionally(new IOException("the old process closed the hand-over after "
                            + fds.size() + " of " + count + " sockets"));
                    }
                })
                .connect(new DomainSocketAddress(path)).await().channel();
            if (!channel.isActive()) {
                throw new IOException("cannot reach the old process at " + path + ": " + channel.closeFuture().cause());
            }
            if (count == 0) {
                all.complete(fds);
            }
            InheritedSockets sockets = InheritedSockets.received(all.get(timeoutMillis, TimeUnit.MILLISECONDS));
            return new Predecessor(loop, channel, sockets);
        } catch (ExecutionException e) {
            loop.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
            throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
        } catch (TimeoutException e) {
            loop.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
            throw new IOException("the old process sent " + fds.size() + " of " + count + " sockets in "
                + timeoutMillis + " ms");
        } catch (IOException | RuntimeException e) {
            loop.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
            throw e;
        }
    }

    public InheritedSockets sockets() {
        return sockets;
    }

    /** Tells the old process this one serves now: it stops accepting and drains. */
    public void ready() throws InterruptedException {
        say("ready " + ProcessHandle.current().pid());
    }

    /** Tells the old process this one will not serve, and why (one line): it keeps serving. */
    public void failed(String reason) throws InterruptedException {
        say("failed " + reason.replace('\n', ' '));
    }

    private void say(String line) throws InterruptedException {
        channel.writeAndFlush(Unpooled.copiedBuffer(line + "\n", StandardCharsets.UTF_8)).await(5, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws InterruptedException {
        channel.close().await(1, TimeUnit.SECONDS);
        loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(2, TimeUnit.SECONDS);
    }
}
