package org.nettyrack.servlet;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.nettyrack.core.ErrorLog;
import org.nettyrack.core.PushEndpoint;
import org.nettyrack.core.ResponseHeaders;
import org.nettyrack.core.Upgrade;
import org.nettyrack.core.config.ServerConfig;
import org.nettyrack.core.ops.ServerCounters;
import org.nettyrack.core.push.PushHead;
import org.nettyrack.core.push.PushSession;
import org.nettyrack.core.push.UpgradeRefusal;

/**
 * Where {@link ServletDoor} hands an upgrade the application accepted: refused as
 * {@link UpgradeRefusal} says while the web app stops (503, {@code on_close} without
 * {@code on_open}); a WebSocket goes to {@link WebSockets}; an SSE stream becomes an async
 * response (no async timeout: the idle policy keeps it alive) with the core's head
 * ({@link PushHead}) driven by an {@link EventStreamConnection}. What SSE needs (async
 * support) every Servlet 6 container has; WebSocket needs the container's Jakarta WebSocket
 * support (Tomcat's is built in; Jetty 12's is the {@code ee10-websocket-jakarta} module).
 * Without it the API's classes may be missing altogether, so {@link WebSockets}, which uses
 * them, is not even loaded: requests are never offered {@code :websocket}, a WebSocket
 * handshake is answered 501 by the door ({@link #unavailable}), and the deployment logs one
 * line saying so.
 */
final class Upgrades {
    /** Where a container with Jakarta WebSocket support publishes its {@code ServerContainer}. */
    static final String WEBSOCKET_CONTAINER = "jakarta.websocket.server.ServerContainer";
    static final String NO_WEBSOCKET = "nettyrack: this container has no Jakarta WebSocket support (no ServerContainer):"
        + " HTTP and SSE are served, WebSocket handshakes are answered 501; for WebSocket, add Jetty 12's"
        + " ee10-websocket-jakarta module (Tomcat has its own)";

    private final PushConnections pushes;
    private final WebSockets webSockets;
    private final ServerConfig config;
    private final ErrorLog errorLog;

    Upgrades(ServletContext context, ServerConfig config, ErrorLog errorLog, ServerCounters counters) {
        this.pushes = new PushConnections(config, counters);
        Object container = context.getAttribute(WEBSOCKET_CONTAINER);
        this.webSockets = container == null ? null : WebSockets.of(container, pushes, config, errorLog);
        if (webSockets == null) {
            context.log(NO_WEBSOCKET);
        }
        this.config = config;
        this.errorLog = errorLog;
    }

    /** What this request may be upgraded to here: the core's rule, less what the container cannot do. */
    Upgrade offered(HttpServletRequest req, Upgrade asked) {
        return switch (asked) {
            case WEBSOCKET -> webSockets != null ? asked : Upgrade.NONE;
            case SSE -> req.isAsyncSupported() ? asked : Upgrade.NONE;
            case NONE -> Upgrade.NONE;
        };
    }

    /** True for a WebSocket handshake the container cannot take: the door answers it 501. */
    boolean unavailable(Upgrade asked) {
        return asked == Upgrade.WEBSOCKET && webSockets == null;
    }

    /** Starts the push conversation the application accepted, or refuses it. */
    void start(HttpServletRequest req, HttpServletResponse resp, Upgrade protocol, int status, ResponseHeaders headers,
               PushEndpoint endpoint) throws IOException {
        UpgradeRefusal refusal = UpgradeRefusal.before(pushes.stopping());
        if (refusal != null) {
            refuse(resp, refusal, endpoint);
        } else if (protocol == Upgrade.WEBSOCKET) {
            webSockets.upgrade(req, resp, headers, endpoint);
        } else {
            eventStream(req, resp, status, headers, endpoint);
        }
    }

    private void eventStream(HttpServletRequest req, HttpServletResponse resp, int status, ResponseHeaders headers,
                             PushEndpoint endpoint) throws IOException {
        AsyncContext async = req.startAsync(req, resp);
        async.setTimeout(0);
        int sent = PushHead.sseStatus(status);
        resp.setStatus(sent);
        ServletHeaders.copy(resp, sent, PushHead.sse(headers));
        resp.setHeader("connection", "close"); // the stream's end is the connection's, as behind the Netty door
        ServletOutputStream out = resp.getOutputStream();
        EventStreamConnection connection = new EventStreamConnection(async, out, pushes, config.push().maxPushQueue(),
            config.push().pushTimeoutMillis());
        connection.attach(new PushSession(pushes.workers, endpoint, connection, () -> { }, errorLog));
        async.addListener(connection);
        pushes.opened(connection);
        out.setWriteListener(connection);
        if (pushes.stopping()) {
            connection.shutdown(); // the door's close may have missed it
        }
    }

    private void refuse(HttpServletResponse resp, UpgradeRefusal refusal, PushEndpoint endpoint) throws IOException {
        refusal.closeUnopened(pushes.workers, endpoint, errorLog);
        if (!resp.isCommitted()) {
            resp.setHeader("connection", "close");
            resp.sendError(refusal.status());
        }
    }

    /** The web app stops: see {@link PushConnections#close}. */
    void close() {
        pushes.close();
    }
}
