package org.nettyrack.netty;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.AttributeKey;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.netty.util.concurrent.ScheduledFuture;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.nettyrack.core.warmup.JitCpu;
import org.nettyrack.core.warmup.WarmupPlan;
import org.nettyrack.core.warmup.WarmupProgress;
import org.nettyrack.core.warmup.WarmupReport;
import org.nettyrack.netty.exchange.RequestStage;
import org.nettyrack.netty.listen.ConnectionLimit;
import org.nettyrack.netty.listen.Transport;
import org.nettyrack.netty.pipeline.ServerState;

/**
 * A warm-up run before the server accepts connections: the plan's requests go through the
 * same pipeline, workers and application as real ones, so the JIT compiles what they run
 * before users wait on it. A listener of its own on a loopback port serves them
 * ({@link ServerState#forWarmup}: not counted, not logged), and clients of ours on the
 * server's event loops send the requests in turn over {@code connections} keep-alive
 * connections, each its next request as its answer ends:
 * <pre>
 * client → loopback listener → pipeline → dispatcher → worker → app → answer → client's next
 * </pre>
 * Once a second {@link WarmupProgress} decides whether to go on, from the answers and the CPU
 * the JIT's compilers took of the process's ({@link JitCpu}). A request answered 400 or worse
 * (or not at all) is reported once and leaves the rotation; the warm-up ends when none is left.
 * {@link #cancel} ends it at once (a stop during the warm-up). {@link #done} completes with the
 * report when the clients and the listener are gone.
 */
final class Warmup {
    private static final long SAMPLE_MILLIS = 1_000;
    private static final long SETTLE_MILLIS = 5_000;
    /** Whether a client connection waits for an answer (else it may close at once when the warm-up ends). */
    private static final AttributeKey<Boolean> WAITING = AttributeKey.valueOf("nettyrack.warmup.waiting");

    private final ServerState state;
    private final WarmupPlan plan;
    private final List<WarmupPlan.Request> rotation;
    private final List<String> failures = new CopyOnWriteArrayList<>();
    private final AtomicLong turn = new AtomicLong();
    private final AtomicLong answered = new AtomicLong();
    private final AtomicReference<WarmupProgress.Stop> stop = new AtomicReference<>();
    private final ChannelGroup clients = new DefaultChannelGroup("nettyrack-warmup", GlobalEventExecutor.INSTANCE);
    private final CompletableFuture<WarmupReport> done = new CompletableFuture<>();
    private final long startNanos = System.nanoTime();
    private final JitCpu.Meter jitCpu = new JitCpu.Meter();
    private final WarmupProgress progress;
    /** Where the progress is sampled and the end settled: one thread for WarmupProgress. */
    private final EventLoop clock;
    private Bootstrap client;
    private Channel listener;
    private ScheduledFuture<?> sampler;

    private Warmup(ServerState state, WarmupPlan plan, EventLoopGroup loops) {
        this.state = state;
        this.plan = plan;
        this.rotation = new CopyOnWriteArrayList<>(plan.requests());
        this.progress = new WarmupProgress(startNanos, plan.maxMillis(), plan.maxRequests(), jitCpu.read());
        this.clock = loops.next();
    }

    /** Starts the warm-up of {@code server}'s application; {@code bootstrap} is its listeners', {@code loops} its I/O loops. */
    static Warmup start(RequestStage server, ServerBootstrap bootstrap, Transport transport, EventLoopGroup loops,
                        WarmupPlan plan) throws InterruptedException {
        RequestStage stage = server.forWarmup();
        Warmup warmup = new Warmup(stage.server(), plan, loops);
        ConnectionLimit connections = new ConnectionLimit(stage.server().config.workers().connectionCap());
        warmup.listener = bootstrap.clone().childHandler(new HttpPipeline(stage, connections, null))
            .bind("127.0.0.1", 0).sync().channel();
        warmup.client = new Bootstrap().group(loops).channel(transport.socketChannel())
            .option(ChannelOption.TCP_NODELAY, true)
            .remoteAddress(warmup.listener.localAddress())
            .handler(new ChannelInitializer<Channel>() {
                @Override
                protected void initChannel(Channel ch) {
                    ch.pipeline().addLast(new HttpClientCodec(), warmup.new Client());
                }
            });
        warmup.sampler = warmup.clock.scheduleAtFixedRate(warmup::sample, SAMPLE_MILLIS, SAMPLE_MILLIS, TimeUnit.MILLISECONDS);
        for (int i = 0; i < plan.connections(); i++) {
            warmup.connect();
        }
        return warmup;
    }

    CompletableFuture<WarmupReport> done() {
        return done;
    }

    /** Ends the warm-up now; {@link #done} completes with what it did so far. */
    void cancel() {
        finish(WarmupProgress.Stop.CANCELLED);
    }

    /** The port of the warm-up's own listener. */
    int port() {
        return ((InetSocketAddress) listener.localAddress()).getPort();
    }

    private void connect() {
        if (stop.get() != null) {
            return;
        }
        client.connect().addListener((ChannelFuture f) -> {
            if (f.isSuccess()) {
                clients.add(f.channel());
            } else {
                fail("connecting to its own listener: " + f.cause().getMessage());
                finish(WarmupProgress.Stop.FAILED);
            }
        });
    }

    private void sample() {
        WarmupProgress.Stop why = progress.sample(System.nanoTime(), answered.get(), jitCpu.read());
        if (why != null) {
            finish(why);
        }
    }

    private void finish(WarmupProgress.Stop why) {
        if (!stop.compareAndSet(null, why)) {
            return;
        }
        sampler.cancel(false);
        boolean now = why == WarmupProgress.Stop.CANCELLED;
        // Clients close after the answer they wait for (or at once when cancelled); then the
        // listener goes, once the requests it took have been answered.
        (now ? clients.close() : clients.newCloseFuture()).addListener(f -> settle());
        if (!now) {
            for (Channel ch : clients) {
                if (!ch.attr(WAITING).get()) {
                    ch.close();
                }
            }
        }
    }

    private void settle() {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(SETTLE_MILLIS);
        clock.execute(new Runnable() {
            @Override
            public void run() {
                if (state.activeRequests() > 0 && System.nanoTime() < deadline) {
                    clock.schedule(this, 10, TimeUnit.MILLISECONDS);
                    return;
                }
                state.channels.close();
                listener.close().addListener(f -> done.complete(new WarmupReport(answered.get(),
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos), progress.rates(), stop.get(),
                    new ArrayList<>(failures))));
            }
        });
    }

    private void fail(String failure) {
        if (!failures.contains(failure)) {
            failures.add(failure);
        }
    }

    /** The next request in turn, or null when every request failed. */
    private WarmupPlan.Request nextRequest() {
        List<WarmupPlan.Request> left = rotation;
        if (left.isEmpty()) {
            return null;
        }
        try {
            return left.get((int) (turn.getAndIncrement() % left.size()));
        } catch (IndexOutOfBoundsException e) {
            return nextRequest(); // one left the rotation meanwhile
        }
    }

    /** One keep-alive connection: a request, its answer, the next. */
    private final class Client extends SimpleChannelInboundHandler<HttpObject> {
        private WarmupPlan.Request sent;
        private int status;

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            ctx.channel().attr(WAITING).set(false);
            send(ctx);
        }

        private void send(ChannelHandlerContext ctx) {
            sent = stop.get() == null ? nextRequest() : null;
            if (sent == null) {
                ctx.close();
                if (stop.get() == null) {
                    finish(WarmupProgress.Stop.FAILED);
                }
                return;
            }
            FullHttpRequest request = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.valueOf(sent.method()),
                sent.target(), Unpooled.wrappedBuffer(sent.body()));
            request.headers().set(HttpHeaderNames.HOST, plan.host()).set(HttpHeaderNames.USER_AGENT, "nettyrack-warmup");
            for (WarmupPlan.Header header : sent.headers()) {
                request.headers().add(header.name(), header.value());
            }
            if (sent.body().length > 0 || !request.headers().contains(HttpHeaderNames.CONTENT_LENGTH)
                && (HttpMethod.POST.equals(request.method()) || HttpMethod.PUT.equals(request.method())
                    || HttpMethod.PATCH.equals(request.method()))) {
                request.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, sent.body().length);
            }
            ctx.channel().attr(WAITING).set(true);
            ctx.writeAndFlush(request);
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, HttpObject msg) {
            if (msg instanceof HttpResponse response) {
                status = response.status().code();
            }
            if (msg instanceof LastHttpContent && sent != null && status >= 200) {
                ctx.channel().attr(WAITING).set(false);
                if (status >= 400) {
                    fail(sent.describe() + ": " + status);
                    rotation.remove(sent);
                }
                if (progress.answered(answered.incrementAndGet()) != null) {
                    finish(WarmupProgress.Stop.COUNT);
                }
                send(ctx);
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            if (ctx.channel().attr(WAITING).get() && sent != null && stop.get() == null) {
                fail(sent.describe() + ": connection closed before the answer");
                rotation.remove(sent);
            }
            connect(); // the server closed it (connection: close): another takes its place
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }
}
