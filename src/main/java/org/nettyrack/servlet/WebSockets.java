package org.nettyrack.servlet;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.websocket.DeploymentException;
import jakarta.websocket.HandshakeResponse;
import jakarta.websocket.server.HandshakeRequest;
import jakarta.websocket.server.ServerContainer;
import jakarta.websocket.server.ServerEndpointConfig;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.nettyrack.core.ErrorLog;
import org.nettyrack.core.PushEndpoint;
import org.nettyrack.core.ResponseHeaders;
import org.nettyrack.core.config.ServerConfig;
import org.nettyrack.core.push.PushHead;
import org.nettyrack.core.push.UpgradeRefusal;

/**
 * WebSocket in the container, through the standard Jakarta WebSocket 2.1 API: when the
 * application accepted a {@code rack.upgrade}, the request goes to
 * {@link ServerContainer#upgradeHttpToWebSocket} with a {@link WebSocketEndpoint} for it; the
 * 101 carries the application's headers ({@link PushHead}) and the subprotocol it chose. The
 * callbacks run on the door's push workers ({@link PushConnections}); on undeploy the open
 * connections get {@code on_shutdown}, 1001 and {@code on_close} before they stop. Loaded only when
 * the container publishes a {@code ServerContainer} ({@link Upgrades}), so a container without
 * WebSocket support, and without the API's classes, still runs the door.
 */
final class WebSockets {
    private final ServerContainer container;
    private final PushConnections pushes;
    private final ServerConfig config;
    private final ErrorLog errorLog;

    private WebSockets(ServerContainer container, PushConnections pushes, ServerConfig config, ErrorLog errorLog) {
        this.container = container;
        this.pushes = pushes;
        this.config = config;
        this.errorLog = errorLog;
    }

    /** The container's WebSocket support: {@code container}, the {@code ServerContainer} it published. */
    static WebSockets of(Object container, PushConnections pushes, ServerConfig config, ErrorLog errorLog) {
        return new WebSockets((ServerContainer) container, pushes, config, errorLog);
    }

    /** Switches the request to a WebSocket driving {@code endpoint}; a failed handshake gets 400 and on_close. */
    void upgrade(HttpServletRequest req, HttpServletResponse resp, ResponseHeaders appHeaders, PushEndpoint endpoint)
        throws IOException {
        ResponseHeaders headers = PushHead.webSocket(appHeaders);
        String subprotocol = PushHead.subprotocol(appHeaders);
        ServerEndpointConfig endpointConfig = ServerEndpointConfig.Builder.create(WebSocketEndpoint.class, path(req))
            .subprotocols(subprotocol == null ? List.of() : List.of(subprotocol))
            .configurator(new Handshake(new WebSocketEndpoint(endpoint, pushes, config, errorLog), headers, subprotocol))
            .build();
        try {
            container.upgradeHttpToWebSocket(req, resp, endpointConfig, Map.of());
        } catch (DeploymentException | IOException | RuntimeException e) {
            errorLog.log("WebSocket handshake failed for " + req.getRequestURI() + ": " + e);
            UpgradeRefusal.BAD_HANDSHAKE.closeUnopened(pushes.workers, endpoint, errorLog);
            if (!resp.isCommitted()) {
                resp.sendError(UpgradeRefusal.BAD_HANDSHAKE.status());
            }
        }
    }

    /**
     * The request's own path within the context, for the endpoint config: Jetty matches it
     * against the request to find path parameters (the Rack app has routed already).
     */
    private static String path(HttpServletRequest req) {
        String path = req.getServletPath() + (req.getPathInfo() == null ? "" : req.getPathInfo());
        return path.isEmpty() ? "/" : path.replace("{", "%7B").replace("}", "%7D");
    }

    /** Hands the container our endpoint instance and adds the application's fields to the 101. */
    private static final class Handshake extends ServerEndpointConfig.Configurator {
        private final WebSocketEndpoint endpoint;
        private final ResponseHeaders headers;
        private final String subprotocol;

        Handshake(WebSocketEndpoint endpoint, ResponseHeaders headers, String subprotocol) {
            this.endpoint = endpoint;
            this.headers = headers;
            this.subprotocol = subprotocol;
        }

        @Override
        public <T> T getEndpointInstance(Class<T> type) {
            return type.cast(endpoint);
        }

        @Override
        public String getNegotiatedSubprotocol(List<String> supported, List<String> requested) {
            return subprotocol != null && requested.contains(subprotocol) ? subprotocol : "";
        }

        @Override
        public boolean checkOrigin(String origin) {
            return true;
        }

        @Override
        public void modifyHandshake(ServerEndpointConfig sec, HandshakeRequest request, HandshakeResponse response) {
            for (int i = 0; i < headers.size(); i++) {
                response.getHeaders().computeIfAbsent(headers.name(i), k -> new ArrayList<>()).add(headers.value(i));
            }
        }
    }
}
