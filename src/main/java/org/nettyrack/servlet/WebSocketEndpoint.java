package org.nettyrack.servlet;

import jakarta.websocket.CloseReason;
import jakarta.websocket.Endpoint;
import jakarta.websocket.EndpointConfig;
import jakarta.websocket.MessageHandler;
import jakarta.websocket.Session;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.nettyrack.core.ErrorLog;
import org.nettyrack.core.ServerConfig;
import org.nettyrack.core.Workers;
import org.nettyrack.core.push.PushEndpoint;
import org.nettyrack.core.push.PushSession;

/**
 * One upgraded connection's Jakarta WebSocket endpoint: the container's events (open, whole
 * text and binary messages, close) go to the connection's core {@link PushSession}, which runs
 * the application's callbacks on the door's push workers, one at a time, {@code on_close}
 * exactly once. Messages over {@code max-message-size} are the container's to refuse (1009).
 * Public only because Jetty checks that an endpoint class is; the door makes every instance.
 */
public final class WebSocketEndpoint extends Endpoint {
    private final PushEndpoint app;
    private final Workers workers;
    private final ServerConfig config;
    private final ErrorLog errorLog;
    private WebSocketConnection connection;
    private PushSession callbacks;

    WebSocketEndpoint(PushEndpoint app, Workers workers, ServerConfig config, ErrorLog errorLog) {
        this.app = app;
        this.workers = workers;
        this.config = config;
        this.errorLog = errorLog;
    }

    @Override
    public void onOpen(Session session, EndpointConfig endpointConfig) {
        session.setMaxTextMessageBufferSize(config.maxMessageSize());
        session.setMaxBinaryMessageBufferSize(config.maxMessageSize());
        connection = new WebSocketConnection(session, config.maxPushQueue(), config.pushTimeoutMillis());
        session.setMaxIdleTimeout(2 * connection.timeoutMillis());
        callbacks = new PushSession(workers, app, connection, () -> { }, errorLog);
        connection.callbacks(callbacks);
        session.addMessageHandler(String.class, (MessageHandler.Whole<String>) text ->
            callbacks.message(text.getBytes(StandardCharsets.UTF_8), true));
        session.addMessageHandler(ByteBuffer.class, (MessageHandler.Whole<ByteBuffer>) buffer -> {
            byte[] data = new byte[buffer.remaining()];
            buffer.get(data);
            callbacks.message(data, false);
        });
        callbacks.opened();
    }

    @Override
    public void onClose(Session session, CloseReason reason) {
        if (connection != null) {
            connection.ended();
            callbacks.closed();
        }
    }

    @Override
    public void onError(Session session, Throwable failure) {
        if (connection != null) {
            connection.ended();
            callbacks.closed();
        }
    }
}
