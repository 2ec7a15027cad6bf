package org.nettyrack.netty;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.DefaultChannelId;
import io.netty.channel.FileRegion;
import io.netty.channel.embedded.EmbeddedChannel;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.nettyrack.core.RackHandler;
import org.nettyrack.core.Workers;
import org.nettyrack.core.config.ServerConfig;
import org.nettyrack.netty.exchange.RequestStage;
import org.nettyrack.netty.files.PublicFiles;
import org.nettyrack.netty.listen.ConnectionLimit;
import org.nettyrack.netty.pipeline.ServerState;

/**
 * The real connection pipeline on an {@link EmbeddedChannel}: raw request bytes in, raw
 * response bytes out. Workers run the handler synchronously on the test thread, which is
 * also the channel's event loop, so every test is deterministic.
 */
public final class PipelineHarness {
    public final EmbeddedChannel channel;
    public final ServerState state;

    public PipelineHarness(RackHandler handler) {
        this(ServerConfig.builder().build(), handler, task -> {
            task.run();
            return true;
        });
    }

    public PipelineHarness(ServerConfig config, RackHandler handler, Workers workers) {
        this(config, handler, workers, null);
    }

    /** With {@code peer} as the socket's remote address (null: EmbeddedChannel's own). */
    public PipelineHarness(ServerConfig config, RackHandler handler, Workers workers, SocketAddress peer) {
        this(config, handler, workers, peer, null);
    }

    /**
     * parent: the listener the connection was accepted by, or null for none (some of Netty's
     * handlers tell server from client by it: the HTTP/2 multiplexer, for {@code Upgrade: h2c}).
     */
    public PipelineHarness(ServerConfig config, RackHandler handler, Workers workers, SocketAddress peer, Channel parent) {
        state = new ServerState(config, handler, workers);
        RequestStage stage = new RequestStage(state, PublicFiles.of(config, this::now));
        HttpPipeline pipeline = new HttpPipeline(stage, new ConnectionLimit(config.workers().connectionCap()), null);
        channel = new EmbeddedChannel(parent, DefaultChannelId.newInstance(), true, false, new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                pipeline.configure(ch.pipeline());
            }
        }) {
            @Override
            protected SocketAddress remoteAddress0() {
                return peer != null ? peer : super.remoteAddress0();
            }
        };
    }

    /** Sends raw bytes and returns everything written back so far, as text. */
    public String exchange(String request) {
        channel.writeInbound(Unpooled.copiedBuffer(request, StandardCharsets.ISO_8859_1));
        channel.runPendingTasks();
        return output();
    }

    /** Sends raw bytes and returns everything written back so far, as text. */
    public String exchange(byte[] bytes) {
        channel.writeInbound(Unpooled.wrappedBuffer(bytes));
        channel.runPendingTasks();
        return output();
    }

    /** The channel's clock, which {@link #elapse} moves (the public files' cache reads it). */
    private long now() {
        return channel.eventLoop().ticker().nanoTime();
    }

    /** Moves the channel's clock on by +millis+ and runs the timers that came due. */
    public void elapse(long millis) {
        channel.advanceTimeBy(millis, TimeUnit.MILLISECONDS);
        channel.runScheduledPendingTasks();
    }

    public String output() {
        StringBuilder out = new StringBuilder();
        for (Object msg; (msg = channel.readOutbound()) != null; ) {
            if (msg instanceof ByteBuf) {
                out.append(((ByteBuf) msg).toString(StandardCharsets.ISO_8859_1));
                ((ByteBuf) msg).release();
            } else if (msg instanceof FileRegion) {
                out.append("[file ").append(((FileRegion) msg).count()).append(" bytes]");
                ((FileRegion) msg).release();
            }
        }
        return out.toString();
    }

    /** The server's {@code date} line (IMF-fixdate), as {@code DateHeader} adds it. */
    public static final Pattern DATE_LINE =
        Pattern.compile("date: [A-Z][a-z]{2}, \\d{2} [A-Z][a-z]{2} \\d{4} \\d{2}:\\d{2}:\\d{2} GMT\r\n");

    /**
     * The response text without its {@code date} lines, for tests that compare whole heads:
     * each of them is the current second's (DateHeaderTest checks the line itself).
     */
    public static String undated(String response) {
        return DATE_LINE.matcher(response).replaceAll("");
    }

    /** How many {@code date} lines the text has. */
    public static int dateLines(String response) {
        return (int) DATE_LINE.matcher(response).results().count();
    }

    public static String statusLine(String response) {
        int end = response.indexOf("\r\n");
        return end < 0 ? response : response.substring(0, end);
    }
}
