package org.nettyrack.servlet;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.function.Supplier;
import org.nettyrack.core.RackHandler;
import org.nettyrack.core.WorkerPool;
import org.nettyrack.core.metrics.PrometheusText;
import org.nettyrack.core.ops.ControlToken;
import org.nettyrack.core.ops.Lifecycle;
import org.nettyrack.core.ops.MetricsPage;
import org.nettyrack.core.ops.ServerCounters;
import org.nettyrack.core.push.PubSub;

/**
 * The servlet door's counters and its {@code GET /metrics}: the Netty door's {@link MetricsPage},
 * labelled {@code door="servlet"}, at the path the {@code metrics-path} context param names
 * (below the web app's context path; off unless set), behind the {@code metrics-token} param's
 * token when one is set ({@code Authorization: Bearer TOKEN} or {@code ?token=}: 403 without
 * it). The container owns the connections, so there are no connection counts; a container's
 * own metrics (Tomcat's JMX, Jetty's statistics) have them.
 */
final class ServletMetrics {
    final ServerCounters counters = new ServerCounters();
    private final Lifecycle life = new Lifecycle();
    private final String path;
    private final ControlToken token;
    private final MetricsPage.Info info;
    private final Supplier<WorkerPool.Load> workers;
    private final Supplier<PubSub> pubsub;

    /** path: null for none; token: null to ask for none. */
    ServletMetrics(String path, String token, RackHandler app, Supplier<WorkerPool.Load> workers, Supplier<PubSub> pubsub) {
        this.path = path == null || path.isBlank() ? null : path.startsWith("/") ? path : "/" + path;
        this.token = token == null || token.isEmpty() ? null : new ControlToken(token);
        this.info = MetricsPage.Info.of("servlet", app);
        this.workers = workers;
        this.pubsub = pubsub;
        life.enter(Lifecycle.Phase.SERVING); // deployed: the container sends requests
    }

    /** The path metrics are served at, or null when off. */
    String path() {
        return path;
    }

    /** Answers the request when it is for the metrics path (true); false for any other. */
    boolean answer(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        if (path == null || !path.equals(req.getRequestURI().substring(req.getContextPath().length()))) {
            return false;
        }
        if (!"GET".equals(req.getMethod()) && !"HEAD".equals(req.getMethod())) {
            resp.setHeader("allow", "GET, HEAD");
            resp.sendError(405);
            return true;
        }
        if (token != null) {
            String given = ControlToken.bearer(req.getHeader("authorization"));
            if (!token.matches(given != null ? given : req.getParameter("token"))) {
                resp.setStatus(403);
                resp.setContentLength(0);
                return true;
            }
        }
        PubSub engine = pubsub.get();
        byte[] page = MetricsPage.render(info, counters.snapshot(life, 0, 0, workers.get(), engine == null ? null : engine.state()),
            counters, life, Map.of(), engine == null ? null : engine.flow()).getBytes(StandardCharsets.UTF_8);
        resp.setStatus(200);
        resp.setContentType(PrometheusText.CONTENT_TYPE);
        resp.setHeader("cache-control", "no-store");
        resp.setContentLength(page.length);
        if (!"HEAD".equals(req.getMethod())) {
            resp.getOutputStream().write(page);
        }
        return true;
    }
}
