package org.nettyrack.netty.control;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.nettyrack.core.Json;
import org.nettyrack.core.metrics.PrometheusText;
import org.nettyrack.core.ops.ControlActions;
import org.nettyrack.core.ops.ControlToken;
import org.nettyrack.core.ops.Lifecycle;

/**
 * Last in a control connection's pipeline (see {@link ControlServer}): one whole request at a
 * time, answered in this order of checks:
 * <ol>
 * <li>a request the codec could not parse: 400;</li>
 * <li>{@code GET /ready}: 200 while the server serves, 503 while it boots, warms up or drains
 * (a load balancer's or Kubernetes' readiness probe); {@code GET /health}: 200 while the
 * process answers at all (a liveness probe). Both say the phase in JSON, and need no token:
 * they tell nothing more than a probe could see;</li>
 * <li>no token or a wrong one ({@code Authorization: Bearer TOKEN}, or {@code ?token=TOKEN}
 * as with Puma's control app): 403 with an empty body, nothing else;</li>
 * <li>a path that is no action: 404; an action with the wrong method: 405 with {@code Allow};</li>
 * <li>{@code GET /stats}, {@code GET /thread-backtraces}: 200 with JSON; {@code GET /metrics}:
 * 200 in Prometheus' text format ({@link org.nettyrack.core.ops.MetricsPage});
 * {@code POST /stop}, {@code POST /restart}: 200, and the stop (or hot restart) is asked for
 * once that answer is written. {@code POST /reload-app}: 200 once the reload is asked for, 409
 * while one is under way.</li>
 * </ol>
 * Tokens are compared as {@link ControlToken} says. Thread backtraces complete
 * off the event loop; reading pauses until they are written, and Netty's flow-control handler
 * holds requests already read meanwhile, so answers keep request order. Netty's keep-alive
 * handler, earlier in the pipeline, settles {@code Connection} and closes.
 */
final class ControlHandler extends SimpleChannelInboundHandler<FullHttpRequest> {
    private static final Map<String, HttpMethod> ACTIONS = Map.of(
        "/stats", HttpMethod.GET, "/metrics", HttpMethod.GET, "/thread-backtraces", HttpMethod.GET, "/stop", HttpMethod.POST,
        "/restart", HttpMethod.POST, "/reload-app", HttpMethod.POST);
    private static final Map<String, HttpMethod> METRICS_ONLY = Map.of("/metrics", HttpMethod.GET);
    private static final String ACTION_LIST = "GET /stats, GET /metrics, GET /thread-backtraces, POST /stop, POST /restart,"
        + " POST /reload-app, GET /ready, GET /health";
    private static final String METRICS_LIST = "GET /metrics, GET /ready, GET /health";
    private static final String JSON = "application/json; charset=utf-8";

    private final ControlToken token;
    private final ControlActions control;
    private final Map<String, HttpMethod> actions;
    private final String actionList;

    /** token: null to let every request through (the explicit no-token opt-out). */
    ControlHandler(String token, ControlActions control) {
        this(token, control, false);
    }

    /**
     * metricsOnly: the metrics listener ({@code --metrics-url}): {@code GET /metrics} and the
     * probes, nothing that acts on the server (so it can go without a token).
     */
    ControlHandler(String token, ControlActions control, boolean metricsOnly) {
        this.token = token == null ? null : new ControlToken(token);
        this.control = control;
        this.actions = metricsOnly ? METRICS_ONLY : ACTIONS;
        this.actionList = metricsOnly ? METRICS_LIST : ACTION_LIST;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
        if (!request.decoderResult().isSuccess()) {
            FullHttpResponse refusal = response(HttpResponseStatus.BAD_REQUEST, error("malformed request"));
            HttpUtil.setKeepAlive(refusal, false);
            ctx.writeAndFlush(refusal);
            return;
        }
        QueryStringDecoder target = new QueryStringDecoder(request.uri());
        if (probe(ctx, request, target.path())) {
            return;
        }
        if (!authorized(request, target)) {
            send(ctx, HttpResponseStatus.FORBIDDEN, null);
            return;
        }
        String path = target.path();
        HttpMethod allowed = actions.get(path);
        if (allowed == null) {
            send(ctx, HttpResponseStatus.NOT_FOUND,
                error("no such action: " + path + " (" + actionList + ")"));
        } else if (!allowed.equals(request.method())) {
            FullHttpResponse refusal = response(HttpResponseStatus.METHOD_NOT_ALLOWED,
                error(path + " takes " + allowed.name() + ", not " + request.method().name()));
            refusal.headers().set(HttpHeaderNames.ALLOW, allowed.name());
            ctx.writeAndFlush(refusal);
        } else if (path.equals("/stats")) {
            send(ctx, HttpResponseStatus.OK, control.stats());
        } else if (path.equals("/metrics")) {
            FullHttpResponse metrics = response(HttpResponseStatus.OK, control.metrics());
            metrics.headers().set(HttpHeaderNames.CONTENT_TYPE, PrometheusText.CONTENT_TYPE);
            ctx.writeAndFlush(metrics);
        } else if (path.equals("/stop")) {
            send(ctx, HttpResponseStatus.OK, "{\"status\":\"stopping\"}").addListener(f -> control.stop());
        } else if (path.equals("/restart")) {
            send(ctx, HttpResponseStatus.OK, "{\"status\":\"restarting\"}").addListener(f -> control.restart());
        } else if (path.equals("/reload-app")) {
            String refusal = control.reloadApp();
            if (refusal == null) {
                send(ctx, HttpResponseStatus.OK, "{\"status\":\"reloading\"}");
            } else {
                send(ctx, HttpResponseStatus.CONFLICT, error(refusal));
            }
        } else {
            threadBacktraces(ctx);
        }
    }

    /** Answers {@code GET /ready} and {@code GET /health} (any other method: 405); false for any other path. */
    private boolean probe(ChannelHandlerContext ctx, FullHttpRequest request, String path) {
        boolean ready = path.equals("/ready");
        if (!ready && !path.equals("/health")) {
            return false;
        }
        if (!HttpMethod.GET.equals(request.method()) && !HttpMethod.HEAD.equals(request.method())) {
            FullHttpResponse refusal = response(HttpResponseStatus.METHOD_NOT_ALLOWED, error(path + " takes GET"));
            refusal.headers().set(HttpHeaderNames.ALLOW, "GET, HEAD");
            ctx.writeAndFlush(refusal);
            return true;
        }
        Lifecycle.Phase phase = control.phase();
        boolean yes = !ready || phase == Lifecycle.Phase.SERVING;
        String json = new Json().beginObject().name("status").value(yes ? (ready ? "ready" : "alive") : "not ready")
            .name("phase").value(phase.label()).endObject().toString();
        // A HEAD gets the head alone: the server codec drops the body of an answer to HEAD.
        ctx.writeAndFlush(response(yes ? HttpResponseStatus.OK : HttpResponseStatus.SERVICE_UNAVAILABLE, json));
        return true;
    }

    private void threadBacktraces(ChannelHandlerContext ctx) {
        ctx.channel().config().setAutoRead(false);
        control.threadBacktraces().whenComplete((json, failure) -> {
            FullHttpResponse response = failure == null
                ? response(HttpResponseStatus.OK, json)
                : response(HttpResponseStatus.INTERNAL_SERVER_ERROR, error("thread backtraces failed: " + failure));
            ctx.writeAndFlush(response).addListener(f -> ctx.channel().config().setAutoRead(true));
        });
    }

    private boolean authorized(FullHttpRequest request, QueryStringDecoder target) {
        if (token == null) {
            return true;
        }
        String given = ControlToken.bearer(request.headers().get(HttpHeaderNames.AUTHORIZATION));
        if (given == null) {
            List<String> tokens = target.parameters().get("token");
            given = tokens == null || tokens.size() != 1 ? null : tokens.get(0);
        }
        return token.matches(given);
    }

    private static ChannelFuture send(ChannelHandlerContext ctx, HttpResponseStatus status, String json) {
        return ctx.writeAndFlush(response(status, json));
    }

    /** A JSON response, or an empty one when json is null. */
    private static FullHttpResponse response(HttpResponseStatus status, String json) {
        ByteBuf body = json == null ? Unpooled.EMPTY_BUFFER : Unpooled.copiedBuffer(json, StandardCharsets.UTF_8);
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, body);
        response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, body.readableBytes());
        if (json != null) {
            response.headers().set(HttpHeaderNames.CONTENT_TYPE, JSON);
        }
        response.headers().set(HttpHeaderNames.CACHE_CONTROL, HttpHeaderValues.NO_STORE);
        return response;
    }

    private static String error(String message) {
        return new Json().beginObject().name("error").value(message).endObject().toString();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close(); // read timeouts, resets: nothing to answer
    }
}
