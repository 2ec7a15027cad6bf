package org.nettyrack.netty;

import io.netty.bootstrap.ServerBootstrap;
import java.io.IOException;
import java.net.BindException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.nettyrack.core.RackHandler;
import org.nettyrack.core.ThreadNice;
import org.nettyrack.core.WorkerPool;
import org.nettyrack.core.config.Bind;
import org.nettyrack.core.config.ControlSettings;
import org.nettyrack.core.config.ServerConfig;
import org.nettyrack.core.config.WorkerSettings;
import org.nettyrack.core.ops.Lifecycle;
import org.nettyrack.core.ops.MetricsPage;
import org.nettyrack.core.ops.Orders;
import org.nettyrack.core.ops.ServerControl;
import org.nettyrack.core.ops.ServerStats;
import org.nettyrack.core.push.PubSub;
import org.nettyrack.core.warmup.RecentRequests;
import org.nettyrack.core.warmup.WarmupPlan;
import org.nettyrack.core.warmup.WarmupReport;
import org.nettyrack.netty.exchange.RequestStage;
import org.nettyrack.netty.files.PublicFiles;
import org.nettyrack.netty.listen.Handoff;
import org.nettyrack.netty.listen.InheritedSockets;
import org.nettyrack.netty.listen.Transport;
import org.nettyrack.netty.pipeline.ServerState;
import org.nettyrack.netty.tls.TlsListeners;
import org.nettyrack.netty.tls.TlsSetupException;

/**
 * A nettyrack server: listens on the configured addresses on Netty event loops (epoll on Linux,
 * NIO elsewhere) and serves every connection through {@link HttpPipeline}, HTTP/1.1 and HTTP/2.
 * Its life, as {@link Lifecycle} tells it:
 * <pre>
 * open()  listeners bound, or taken over ({@link #inherit}); nothing accepted yet   BOOTING
 * [warm-up through a private listener]                                               WARMING
 * serve() the listeners accept                                                       SERVING
 * stop()  graceful: stop accepting, finish in-flight requests within the shutdown    DRAINING
 *         timeout, close the rest; or handOver() first, when a new process took the
 *         listeners over ({@link #handoff()}) and serves
 * </pre>
 * {@link #start()} is open and serve. Where it listens is {@link ServerSockets}: with a control
 * endpoint configured, its listener too, reporting {@link #stats()} and passing
 * {@code POST /stop} and {@code POST /restart} on as {@link #orders()}. {@code ssl://} listeners serve TLS ({@link TlsListeners}, read at
 * open, swapped by {@link #reloadTls()}).
 */
public final class NettyServer {
    private static final long CLOSE_CALLBACK_GRACE_MILLIS = 1_000;

    private final ServerConfig config;
    private final RackHandler handler;
    private final PubSub pubsub;
    private final MetricsPage.Info info;
    private final Orders orders = new Orders();
    private final Lifecycle lifecycle = new Lifecycle();
    private final Transport transport = Transport.best();
    private final ServerSockets sockets;
    private ServerLoops loops;
    private volatile Warmup warmup;
    private TlsListeners tls;
    private volatile ServerState state;
    private volatile RequestStage stage;
    private WorkerPool pool;

    public NettyServer(ServerConfig config, RackHandler handler) {
        this(config, handler, null);
    }

    /** pubsub: the engine the application's push goes through, named in the stats (null: none). */
    public NettyServer(ServerConfig config, RackHandler handler, PubSub pubsub) {
        this.config = config;
        this.handler = handler;
        this.pubsub = pubsub;
        this.info = MetricsPage.Info.of("netty", handler);
        this.sockets = new ServerSockets(transport, config.workers().connectionCap());
    }

    /**
     * Listening sockets this process was given (by systemd, or by the process it replaces): each
     * serves the bind at its address instead of a new socket. Call before {@link #open}.
     */
    public synchronized void inherit(InheritedSockets sockets) {
        this.sockets.inherit(sockets);
    }

    /** Opens and serves at once: {@link #open} then {@link #serve}. */
    public synchronized void start() throws BindException, InterruptedException, TlsSetupException {
        open();
        serve();
    }

    /**
     * Binds (or takes over) every address without accepting yet, and starts the control
     * endpoint; throws {@link BindException} naming the address that is taken, or
     * {@link TlsSetupException} when an {@code ssl://} listener's files do not make a TLS setup.
     */
    public synchronized void open() throws BindException, InterruptedException, TlsSetupException {
        if (state != null) {
            throw new IllegalStateException("already started");
        }
        tls = new TlsListeners(config);
        WorkerSettings workers = config.workers();
        ThreadNice nice = new ThreadNice(workers.workerNice(), workers.setPriority(), config.logs().errorLog());
        pool = new WorkerPool(workers.minThreads(), workers.maxThreads(), workers.waitThreads(), workers.queueSize(), nice::apply);
        ServerState opened = new ServerState(config, handler, pool);
        stage = new RequestStage(opened, PublicFiles.of(config, System::nanoTime));
        state = opened;
        loops = new ServerLoops(config, transport, new HttpPipeline(stage, sockets.connections(), null));
        for (Bind bind : config.listen().binds()) {
            try {
                ServerBootstrap served = tls.of(bind) != null
                    ? loops.bootstrap.clone().childHandler(new HttpPipeline(stage, sockets.connections(), tls.of(bind))) : loops.bootstrap;
                sockets.open(bind, served);
            } catch (BindException e) {
                stop();
                throw e;
            }
        }
        if (config.controlSettings().control() != null || config.controlSettings().metrics() != null) {
            startControl(config.controlSettings());
        }
    }

    /**
     * Runs {@code plan}'s requests through the application before {@link #serve} ({@link Warmup});
     * the lifecycle says WARMING meanwhile. The future completes with what it did; a stop, or
     * {@link #cancelWarmUp}, ends it early.
     */
    public synchronized CompletableFuture<WarmupReport> warmUp(WarmupPlan plan) throws InterruptedException {
        if (state == null || state.draining) {
            throw new IllegalStateException(state == null ? "not opened" : "stopped");
        }
        lifecycle.enter(Lifecycle.Phase.WARMING);
        warmup = Warmup.start(stage, loops.bootstrap, transport, loops.io, plan);
        return warmup.done();
    }

    /**
     * Keeps the targets of the last {@code size} GET requests answered 2xx or 3xx, for a hot
     * restart's new process to warm up on ({@link #recentRequests}).
     */
    public synchronized void rememberRecent(int size) {
        if (state == null) {
            throw new IllegalStateException("not opened");
        }
        state.rememberRecent(size);
    }

    /** The targets kept by {@link #rememberRecent}, oldest first; empty when none are kept. */
    public List<String> recentRequests() {
        ServerState current = state;
        RecentRequests recent = current == null ? null : current.recent();
        return recent == null ? List.of() : recent.targets();
    }

    /** Ends a warm-up still running; its report says so. */
    public void cancelWarmUp() {
        Warmup running = warmup;
        if (running != null) {
            running.cancel();
        }
    }

    /** Starts accepting on every listener (and on a control endpoint taken over): the server is ready. */
    public synchronized void serve() {
        if (state == null || state.draining) {
            throw new IllegalStateException(state == null ? "not opened" : "stopped");
        }
        sockets.accept();
        lifecycle.enter(Lifecycle.Phase.SERVING);
    }

    /**
     * Offers every listening socket (the control endpoint's last) to the process that will
     * replace this one, over a private unix socket: see {@link Handoff}. Epoll only.
     */
    public synchronized Handoff handoff() throws IOException, InterruptedException {
        if (state == null || state.draining) {
            throw new IllegalStateException(state == null ? "not opened" : "stopped");
        }
        return sockets.handoff(loops.acceptors);
    }

    /**
     * Stops accepting, leaving the listening sockets to the process that took them over and
     * serves now; {@link #stop} then drains without closing them.
     */
    public synchronized void handOver() throws InterruptedException {
        if (state == null || state.draining) {
            return;
        }
        sockets.handOver();
    }

    /** The control endpoint and the metrics listener, those configured. */
    private void startControl(ControlSettings settings) throws BindException, InterruptedException {
        long waitMillis = settings.controlTimeoutMillis();
        ServerControl actions = new ServerControl(this::stats, this::metrics, pool, handler, waitMillis, orders, lifecycle);
        long idleMillis = config.timeouts().keepAliveTimeoutMillis() + waitMillis;
        try {
            if (settings.control() != null) {
                sockets.openControl(settings.control(), idleMillis, actions);
            }
            if (settings.metrics() != null) {
                sockets.openMetrics(settings.metrics(), idleMillis, actions);
            }
        } catch (BindException e) {
            stop();
            throw e;
        }
    }

    /** Checks that every {@code ssl://} listener of config can be set up from its files: {@link TlsListeners#check}. */
    public static void checkTls(ServerConfig config) throws TlsSetupException {
        TlsListeners.check(config);
    }

    /** Reads the TLS listeners' files again and swaps them in, all or none: {@link TlsListeners#reload}. */
    public synchronized int reloadTls() throws TlsSetupException {
        return tls == null ? 0 : tls.reload();
    }

    /** The TLS implementation serving ssl:// listeners ({@link TlsListeners#engine}), or null without any. */
    public String tlsEngine() {
        return TlsListeners.engine(config);
    }

    /** The counters and gauges of this server now; see {@link ServerStats}. */
    public ServerStats stats() {
        ServerState current = state;
        if (current == null) {
            throw new IllegalStateException("not started");
        }
        return current.counters.snapshot(lifecycle, current.channels.size(), current.activeRequests(), pool.load(),
            pubsub == null ? null : pubsub.state());
    }

    /** {@code GET /metrics}: {@link MetricsPage} of this server now. */
    public String metrics() {
        ServerState current = state;
        if (current == null) {
            throw new IllegalStateException("not started");
        }
        return MetricsPage.render(info, stats(), current.counters, lifecycle, ServerSockets.byTransport(current.channels),
            pubsub == null ? null : pubsub.flow());
    }

    /**
     * Replaces every worker thread once it has finished its task ({@link WorkerPool#renewThreads}):
     * after a reload, so that a replaced runtime's per-thread state goes with the threads that ran it.
     */
    public void renewWorkers() {
        pool.renewThreads();
    }

    /** Where {@code POST /stop} and {@code POST /restart} go: the launcher waits on them as it waits for signals. */
    public Orders orders() {
        return orders;
    }

    /** Where this server is in its life; the launcher moves it on while warming up. */
    public Lifecycle lifecycle() {
        return lifecycle;
    }

    /** The control endpoint's {@code tcp://host:port} (port 0 resolved) or {@code unix:///path}; null without one. */
    public synchronized String controlUrl() {
        return sockets.controlUrl();
    }

    /** The metrics listener's URL ({@code --metrics-url}, the port actually bound), or null without one. */
    public synchronized String metricsUrl() {
        return sockets.metricsUrl();
    }

    /** The URLs served, with the ports actually bound (port 0 resolved); unix:///path for a socket file. */
    public synchronized List<String> urls() {
        return sockets.urls();
    }

    /** The first listener's port (0 when it is a unix socket). */
    public synchronized int port() {
        return sockets.firstPort();
    }

    /** "epoll" or "nio". */
    public String transport() {
        return transport.name();
    }

    public boolean isRunning() {
        ServerState current = state;
        return current != null && !current.draining && lifecycle.phase() == Lifecycle.Phase.SERVING;
    }

    /** The running server's shared state (for tests), or null before start. */
    ServerState state() {
        return state;
    }

    /**
     * Stops accepting, tells every connection to close once idle (see {@code RequestTimeouts}),
     * waits up to the shutdown timeout for them to close and for the requests and push
     * connections they counted to end, then closes the rest. Returns true when no request was
     * still in flight at that point.
     */
    public synchronized boolean stop() throws InterruptedException {
        cancelWarmUp();
        if (state == null || state.draining) {
            return true; // not started, or stopped already: stop() holds the lock throughout
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(config.timeouts().shutdownTimeoutMillis());
        sockets.closeListeners();
        state.draining = true; // from here on isRunning() is false: nothing accepts any more
        lifecycle.enter(Lifecycle.Phase.DRAINING);
        boolean finished = state.drain(deadline);
        // At least a moment even past the deadline: the connections just closed have their
        // on_close callbacks queued, and those run exactly once, however a connection ended.
        pool.shutdown(Math.max(CLOSE_CALLBACK_GRACE_MILLIS, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
        loops.shutdown();
        sockets.stopControl();
        return finished;
    }
}
