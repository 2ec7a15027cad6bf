package org.nettyrack.servlet;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import org.nettyrack.core.ErrorLog;
import org.nettyrack.core.FailureResponse;
import org.nettyrack.core.PlainAnswers;
import org.nettyrack.core.RequestBody;
import org.nettyrack.core.Upgrade;
import org.nettyrack.core.WorkerPool;
import org.nettyrack.core.config.ServerConfig;
import org.nettyrack.core.host.HostedApp;
import org.nettyrack.core.ops.ExchangeTracer;
import org.nettyrack.core.ops.ExchangeTracers;

/**
 * What {@link RackFilter} and {@link RackServlet} share: the booted application and the static
 * files, kept by {@link RackListener} in a context attribute. A request, on the container's
 * thread: its head checked against the Netty door's limits ({@link HeadLimits}: 414, 431), its
 * body read in full ({@link RequestBodies}: memory, then a temp file; 413 past
 * {@code max-body-size}) → {@link ServletRackRequest} and {@link ServletResponseSink} → the
 * door's own worker pool ({@code threads} workers, requests taken in arrival order, as the Netty
 * door's), which runs the bridge through the core's {@link FailureResponse#serve} (the Netty
 * door's 500 rules). A request that asks for no upgrade goes async first and the container's
 * thread returns at once; the worker writes the response and completes it ({@link #serveAsync}).
 * One that may be upgraded keeps the container's thread waiting, since the container switches
 * protocols (WebSocket) or goes async (SSE) from the request's own dispatch: an accepted upgrade
 * goes to {@link Upgrades} on that thread. A HEAD waits too: Jetty 12 closes the connection of a
 * HEAD whose Content-Length no bytes were written for, but completed async it mostly neither
 * closed it nor read the next request (curl's second HEAD waited for ever). A response that had
 * to be cut is an exception thrown to the container (from an ASYNC dispatch for an async
 * request), which then closes the connection instead of completing it. Each exchange the door
 * ran or answered 503 ends at its {@link ExchangeTracer}, once the worker has written it.
 *
 * <p>Ruby runs only on the door's workers, never on the container's threads: JRuby leaves
 * thread locals (its string and load-path caches) on every thread that runs Ruby, and on a
 * container thread, which outlives the web app, they would keep the web app's class loader, and
 * all of JRuby's classes in metaspace, after an undeploy. The workers end with the door.
 */
final class ServletDoor {
    static final String ATTRIBUTE = ServletDoor.class.getName();
    private static final String CUT = ServletDoor.class.getName() + ".cut";

    private final HostedApp app;
    private final ServerConfig config;
    private final ErrorLog errorLog = ErrorLog.stderr();
    private final Upgrades upgrades;
    private final HeadLimits headLimits;
    private final ExchangeTracer tracer;
    /**
     * The container may run hundreds of request threads; at most {@code threads} (the CLI's
     * maximum) run the app at once, the others queued first come, first served, at most
     * {@code queue-size} of them (503 beyond, as the Netty door answers).
     */
    private final WorkerPool workers;
    final ContainerFiles statics;
    /** The door's counters and its {@code GET} at the {@code metrics-path} param. */
    final ServletMetrics metrics;
    /** {@link RackFilter} is mapped for ASYNC dispatches too ({@link RackListener} maps it). */
    final boolean filterSeesAsync;

    /** metricsPath, metricsToken: the context params (null: none), for {@link ServletMetrics}. */
    ServletDoor(HostedApp app, ServletContext context, ContainerFiles statics, boolean filterSeesAsync, String metricsPath,
                String metricsToken) {
        this.app = app;
        this.filterSeesAsync = filterSeesAsync;
        this.config = app.config();
        this.statics = statics;
        this.workers = new WorkerPool(config.workers().minThreads(), config.workers().maxThreads(),
            config.workers().waitThreads(), config.workers().queueSize(), () -> { });
        this.metrics = new ServletMetrics(metricsPath, metricsToken, app.handler(), workers::load, app::pubsub);
        this.upgrades = new Upgrades(context, config, errorLog, metrics.counters);
        this.headLimits = new HeadLimits(config);
        this.tracer = ExchangeTracers.choose(config.logs().traces(), errorLog);
    }

    /**
     * Stops what the door itself runs (push connections, their callback workers), once: from the
     * filter's or servlet's destroy, else from the listener, which then stops the app.
     */
    void close() {
        upgrades.close();
        try {
            workers.shutdown(config.timeouts().shutdownTimeoutMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The door {@link RackListener} set up for this web app. */
    static ServletDoor of(ServletContext context) throws ServletException {
        Object door = context.getAttribute(ATTRIBUTE);
        if (!(door instanceof ServletDoor)) {
            throw new ServletException("nettyrack: no Rack app in this web app; register "
                + RackListener.class.getName() + " as a listener in web.xml");
        }
        return (ServletDoor) door;
    }

    /**
     * Runs the Rack application for this request; {@code scriptName}: where the door is mounted;
     * {@code mayGoAsync}: an ASYNC dispatch of this request would come back to {@link #resume}.
     */
    void serve(HttpServletRequest req, HttpServletResponse resp, String scriptName, boolean mayGoAsync)
        throws IOException {
        int refusal = headLimits.refusal(req);
        RequestBody body = refusal == 0 ? RequestBodies.read(req, config) : null;
        if (body == null) {
            refuse(req, resp, refusal == 0 ? 413 : refusal);
            return;
        }
        boolean handedOff = false;
        try {
            ServletRackRequest request = new ServletRackRequest(req, resp, body, scriptName, upgrades);
            if (request.upgradeUnavailable()) {
                refuse(req, resp, 501); // the container has no WebSocket (logged at deploy)
                return;
            }
            boolean head = "HEAD".equals(req.getMethod());
            ServletResponseSink sink = new ServletResponseSink(resp, head, request.upgrade());
            if (mayGoAsync && !head && request.upgrade() == Upgrade.NONE && req.isAsyncSupported()) {
                handedOff = true;
                serveAsync(req, resp, request, sink, body);
                return;
            }
            request.times().dispatched();
            if (!runOnWorker(() -> FailureResponse.serve(app.handler(), request, sink, errorLog))) {
                rejected(req, resp, request);
                return;
            }
            if (sink.acceptedEndpoint() != null) {
                upgrades.start(req, resp, request.upgrade(), sink.acceptedStatus(), sink.acceptedHeaders(),
                    sink.acceptedEndpoint());
            }
            ended(request, sink.statusSent(), sink.bytesSent());
            if (sink.acceptedEndpoint() == null && sink.aborted()) {
                throw new ResponseCut(req);
            }
        } finally {
            if (!handedOff) {
                body.close();
            }
        }
    }

    /**
     * The request asked for no upgrade and is no HEAD: it goes async (no async timeout), into the
     * workers' queue, and the container's thread goes back to the container at once. The worker runs the
     * app, writes the response (blocking writes, each flushed as the sink says) and completes
     * the request; a response it had to cut goes back to the container in an ASYNC dispatch, for
     * {@link #resume} to throw {@link ResponseCut} there as the synchronous path throws it.
     */
    private void serveAsync(HttpServletRequest req, HttpServletResponse resp, ServletRackRequest request,
                            ServletResponseSink sink, RequestBody body) throws IOException {
        AsyncContext async = req.startAsync(req, resp);
        async.setTimeout(0);
        request.times().dispatched();
        boolean queued = workers.submit(() -> {
            try {
                FailureResponse.serve(app.handler(), request, sink, errorLog);
            } finally {
                try {
                    body.close();
                } finally {
                    ended(request, sink.statusSent(), sink.bytesSent());
                    finish(async, req, sink.aborted());
                }
            }
        });
        if (!queued) { // the queue is full, or the door stops
            try {
                body.close();
                rejected(req, resp, request);
            } finally {
                async.complete();
            }
        }
    }

    /** An exchange ended with this status and body size: counted (the metrics) and traced, once. */
    private void ended(ServletRackRequest request, int status, long bytes) {
        long end = System.nanoTime();
        metrics.counters.answered(request, status, end);
        tracer.finished(request, status, bytes, end);
    }

    /** Ends an async request: completed, or dispatched back to be cut by {@link #resume}. */
    private static void finish(AsyncContext async, HttpServletRequest req, boolean cut) {
        try {
            if (cut) {
                req.setAttribute(CUT, new ResponseCut(req));
                async.dispatch();
            } else {
                async.complete();
            }
        } catch (IllegalStateException e) {
            // the container ended the request already (the client went): nothing left to end
        }
    }

    /**
     * An ASYNC dispatch reached the door: throws the {@link ResponseCut} a worker left for it,
     * which makes the container close the connection; returns when the dispatch is not the door's.
     */
    static void resume(HttpServletRequest req) throws ResponseCut {
        Object cut = req.getAttribute(CUT);
        if (cut instanceof ResponseCut) {
            req.removeAttribute(CUT);
            throw (ResponseCut) cut;
        }
    }

    /** Runs the task on a worker and waits for it; false when the queue is full or the door is stopping. */
    private boolean runOnWorker(Runnable task) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        boolean queued = workers.submit(() -> {
            try {
                task.run();
            } finally {
                done.complete(null);
            }
        });
        if (queued) {
            done.join();
        }
        return queued;
    }

    /** The worker queue is full (or the door stops): 503, counted as the Netty door counts it. */
    private void rejected(HttpServletRequest req, HttpServletResponse resp, ServletRackRequest request) throws IOException {
        metrics.counters.rejected();
        refuse(req, resp, 503);
        ended(request, 503, PlainAnswers.body(503).length);
    }

    /**
     * Answers a request the door will not run with the core's {@link PlainAnswers} (as the Netty
     * door does), and closes its connection. What is left of its body is read and dropped first,
     * up to {@code max-discard-size} ({@link RequestBodies#discardRest}): closed with bytes
     * unread, the connection would be reset under a client still sending, which would never
     * read the answer.
     */
    private void refuse(HttpServletRequest req, HttpServletResponse resp, int status) throws IOException {
        RequestBodies.discardRest(req, config.limits().maxDiscardSize());
        byte[] text = PlainAnswers.body(status);
        resp.setStatus(status);
        resp.setContentType(PlainAnswers.CONTENT_TYPE);
        resp.setHeader("connection", "close");
        ServletHeaders.dateIfFinal(resp, status);
        resp.setContentLength(text.length);
        resp.getOutputStream().write(text);
    }

    /** Thrown to the container so it closes the connection of a response that could not be finished. */
    static final class ResponseCut extends IOException {
        private static final long serialVersionUID = 1L;

        ResponseCut(HttpServletRequest request) {
            super("nettyrack: response to " + request.getMethod() + " " + request.getRequestURI()
                + " cut short (the reason is logged above)");
        }

        @Override
        public synchronized Throwable fillInStackTrace() {
            return this;
        }
    }
}
