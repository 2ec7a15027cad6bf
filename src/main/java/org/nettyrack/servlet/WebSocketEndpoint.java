package org.nettyrack.servlet;

import jakarta.websocket.CloseReason;
import jakarta.websocket.Endpoint;
import jakarta.websocket.EndpointConfig;
import jakarta.websocket.MessageHandler;
import jakarta.websocket.PongMessage;
import jakarta.websocket.Session;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.nettyrack.core.ErrorLog;
import org.nettyrack.core.PushEndpoint;
import org.nettyrack.core.Upgrade;
import org.nettyrack.core.config.ServerConfig;
import org.nettyrack.core.push.PushSession;

/**
 * One upgraded connection's Jakarta WebSocket endpoint: the container's events (open, whole
 * text and binary messages, close) go to the connection's core {@link PushSession}, which runs
 * the application's callbacks on the door's push workers, one at a time, {@code on_close}
 * exactly once. Messages over {@code max-message-size} are the container's to refuse (1009).
 * Whatever arrives, pongs included, counts as heard for the connection's idle pings.
 * Public only because Jetty checks that an endpoint class is; the door makes every instance.
 */
public final class WebSocketEndpoint extends Endpoint implements PushConnections.Open {
    private final PushEndpoint app;
    private final PushConnections pushes;
    private final ServerConfig config;
    private final ErrorLog errorLog;
    private volatile WebSocketConnection connection;
    private volatile PushSession callbacks;

    /** {@code pushes}: the door's push connections, which this one joins until it closes. */
    WebSocketEndpoint(PushEndpoint app, PushConnections pushes, ServerConfig config, ErrorLog errorLog) {
        this.app = app;
        this.pushes = pushes;
        this.config = config;
        this.errorLog = errorLog;
    }

    /** The web app stops: {@code on_shutdown}, then a close with 1001, in callback order. */
    @Override
    public void shutdown() {
        WebSocketConnection open = connection;
        if (open != null) {
            open.shutdown();
        }
    }

    @Override
    public void onOpen(Session session, EndpointConfig endpointConfig) {
        session.setMaxTextMessageBufferSize(config.push().maxMessageSize());
        session.setMaxBinaryMessageBufferSize(config.push().maxMessageSize());
        connection = new WebSocketConnection(session, pushes, config.push().maxPushQueue(), config.push().pushTimeoutMillis());
        callbacks = new PushSession(pushes.workers, app, connection, () -> { }, errorLog);
        connection.callbacks(callbacks);
        session.addMessageHandler(String.class, (MessageHandler.Whole<String>) text -> {
            connection.heard();
            callbacks.message(text.getBytes(StandardCharsets.UTF_8), true);
        });
        session.addMessageHandler(ByteBuffer.class, (MessageHandler.Whole<ByteBuffer>) buffer -> {
            connection.heard();
            byte[] data = new byte[buffer.remaining()];
            buffer.get(data);
            callbacks.message(data, false);
        });
        session.addMessageHandler(PongMessage.class, (MessageHandler.Whole<PongMessage>) pong -> connection.heard());
        pushes.opened(this);
        callbacks.opened();
        connection.startTimers();
    }

    @Override
    public void onClose(Session session, CloseReason reason) {
        ended();
    }

    @Override
    public void onError(Session session, Throwable failure) {
        ended();
    }

    private void ended() {
        if (connection != null) {
            connection.ended();
            callbacks.closed();
        }
        pushes.ended(this);
    }

    @Override
    public Upgrade protocol() {
        return Upgrade.WEBSOCKET;
    }
}
