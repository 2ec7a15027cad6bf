package org.nettyrack.netty.listen;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.epoll.EpollDomainSocketChannel;
import io.netty.channel.epoll.EpollServerDomainSocketChannel;
import io.netty.channel.unix.DomainSocketAddress;
import io.netty.channel.unix.FileDescriptor;
import io.netty.handler.codec.LineBasedFrameDecoder;
import io.netty.handler.codec.string.StringDecoder;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The old process's side of a hot restart ({@link Predecessor} is the new one's): a unix socket
 * in a directory only this user may enter, from which the one process that connects first, as
 * the same user, receives every listening socket (SCM_RIGHTS: the same sockets, so the
 * kernel's backlog carries over), then says how its boot ended. {@link #outcome} completes
 * with its pid once it serves, or fails with a {@link SuccessorFailed} saying why not.
 * {@link #close} removes the socket and its directory.
 */
public final class Handoff implements AutoCloseable {
    private static final int MAX_LINE = 4096;

    /** The new process said it cannot serve, or went away before it did. */
    public static final class SuccessorFailed extends IOException {
        private static final long serialVersionUID = 1L;

        SuccessorFailed(String message) {
            super(message);
        }
    }

    private final Path directory;
    private final Path socket;
    private final int count;
    private final Channel listener;
    private final CompletableFuture<Long> outcome;

    private Handoff(Path directory, Path socket, int count, Channel listener, CompletableFuture<Long> outcome) {
        this.directory = directory;
        this.socket = socket;
        this.count = count;
        this.listener = listener;
        this.outcome = outcome;
    }

    /** Opens the hand-over of {@code fds} on {@code loop} (an epoll one). */
    public static Handoff open(EventLoopGroup loop, List<Integer> fds) throws IOException, InterruptedException {
        Path directory = Files.createTempDirectory("nettyrack-handoff-",
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Path socket = directory.resolve("socket");
        CompletableFuture<Long> outcome = new CompletableFuture<>();
        AtomicBoolean given = new AtomicBoolean();
        int uid = (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
        Channel listener = new ServerBootstrap().group(loop).channel(EpollServerDomainSocketChannel.class)
            .childHandler(new ChannelInitializer<Channel>() {
                @Override
                protected void initChannel(Channel ch) throws IOException {
                    if (((EpollDomainSocketChannel) ch).peerCredentials().uid() != uid || !given.compareAndSet(false, true)) {
                        ch.close();
                        return;
                    }
                    ch.pipeline().addLast(new LineBasedFrameDecoder(MAX_LINE), new StringDecoder(StandardCharsets.UTF_8),
                        new Word(outcome));
                    for (int fd : fds) {
                        ch.write(new FileDescriptor(fd));
                    }
                    ch.flush();
                }
            })
            .bind(new DomainSocketAddress(socket.toString())).sync().channel();
        return new Handoff(directory, socket, fds.size(), listener, outcome);
    }

    /** What the new process says: "ready PID" or "failed REASON"; its going away before either is a failure. */
    private static final class Word extends SimpleChannelInboundHandler<String> {
        private final CompletableFuture<Long> outcome;

        Word(CompletableFuture<Long> outcome) {
            this.outcome = outcome;
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, String line) {
            if (line.startsWith("ready ")) {
                try {
                    outcome.complete(Long.parseLong(line.substring(6).trim()));
                } catch (NumberFormatException e) {
                    outcome.completeExceptionally(new SuccessorFailed("the new process said something else: " + line));
                }
            } else if (line.startsWith("failed ")) {
                outcome.completeExceptionally(new SuccessorFailed(line.substring(7)));
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            outcome.completeExceptionally(new SuccessorFailed("the new process went away before it served"));
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }

    /** The socket the new process connects to (its environment names it). */
    public String socket() {
        return socket.toString();
    }

    /** How many listening sockets it receives. */
    public int count() {
        return count;
    }

    /** The new process's pid once it serves; fails with {@link SuccessorFailed} when it will not. */
    public CompletableFuture<Long> outcome() {
        return outcome;
    }

    @Override
    public void close() throws InterruptedException {
        listener.close().await(1, TimeUnit.SECONDS); // Netty deletes the socket file
        try {
            Files.deleteIfExists(socket);
            Files.deleteIfExists(directory);
        } catch (IOException e) {
            // a directory in /tmp that cleaning there will take: nothing to tell the operator
        }
    }
}
