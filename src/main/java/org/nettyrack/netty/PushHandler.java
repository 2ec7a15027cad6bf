package org.nettyrack.netty;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.handler.codec.CorruptedFrameException;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.handler.codec.http.websocketx.PingWebSocketFrame;
import io.netty.handler.codec.http.websocketx.PongWebSocketFrame;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.timeout.IdleState;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.ReferenceCountUtil;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.nettyrack.core.push.PushSession;
import org.nettyrack.core.push.Upgrade;

/**
 * Last in an upgraded connection's pipeline; turns what arrives into {@link PushSession}
 * events. WebSocket: whole messages (Netty's aggregator joined the fragments, its validator
 * checked the UTF-8) go to {@code on_message}; pings are answered; a close frame is answered
 * and ends the connection; an over-long message closes with 1009. SSE streams receive
 * nothing, so anything read is dropped.
 *
 * <p>Idle time ({@code timeout}): a WebSocket that has sent nothing for one timeout is pinged,
 * and closed (1001) after a second; every push connection with nothing written for one
 * timeout gets a keep-alive (ping or comment). A stopping server ({@link ConnectionEvent#DRAIN})
 * runs {@code on_shutdown}, then closes with 1001 or ends the stream.
 */
final class PushHandler extends ChannelDuplexHandler {
    static final String IDLE = "push-idle";

    private final NettyPushConnection connection;
    private final PushSession session;
    private final AtomicInteger openConnections;
    private boolean pinged;

    PushHandler(NettyPushConnection connection, PushSession session, AtomicInteger openConnections) {
        this.connection = connection;
        this.session = session;
        this.openConnections = openConnections;
    }

    /** The idle timer for a connection's current timeout. */
    static IdleStateHandler idleHandler(Upgrade protocol, long timeoutMillis) {
        long readerIdle = protocol == Upgrade.WEBSOCKET ? timeoutMillis : 0;
        return new IdleStateHandler(readerIdle, timeoutMillis, 0, TimeUnit.MILLISECONDS);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        pinged = false;
        try {
            if (msg instanceof TextWebSocketFrame || msg instanceof BinaryWebSocketFrame) {
                ByteBuf content = ((io.netty.handler.codec.http.websocketx.WebSocketFrame) msg).content();
                byte[] data = ByteBufUtil.getBytes(content);
                if (connection.isOpen() && !session.message(data, msg instanceof TextWebSocketFrame)) {
                    ctx.channel().config().setAutoRead(false); // resumed by the session
                }
            } else if (msg instanceof PingWebSocketFrame) {
                ctx.writeAndFlush(new PongWebSocketFrame(((PingWebSocketFrame) msg).content().retain()));
            } else if (msg instanceof CloseWebSocketFrame) {
                int code = ((CloseWebSocketFrame) msg).statusCode();
                connection.peerClosed(code < 0 ? NettyPushConnection.NORMAL : code);
            }
            // Pongs only prove the peer alive; SSE clients send nothing worth reading.
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (evt instanceof IdleStateEvent) {
            IdleState state = ((IdleStateEvent) evt).state();
            if (state == IdleState.READER_IDLE) {
                if (!ctx.channel().config().isAutoRead()) {
                    return; // reading paused while the app catches up: not the client's silence
                }
                if (pinged) {
                    connection.closeWith(NettyPushConnection.GOING_AWAY, "idle timeout");
                } else {
                    pinged = true;
                    connection.keepAlive();
                }
            } else if (state == IdleState.WRITER_IDLE) {
                connection.keepAlive();
            }
            return;
        }
        if (evt instanceof ChannelInputShutdownEvent) {
            ctx.close(); // the peer closed its side (without a close frame): nothing more can come
            return;
        }
        if (evt == ConnectionEvent.DRAIN) {
            session.shutdown();
            session.run(() -> connection.closeWith(NettyPushConnection.GOING_AWAY, "server shutting down"));
            return;
        }
        super.userEventTriggered(ctx, evt);
    }

    /** Replaces the idle timer after {@code client.timeout =}; runs on the event loop. */
    void timeoutChanged(ChannelHandlerContext ctx) {
        if (ctx != null && !ctx.isRemoved() && ctx.pipeline().get(IDLE) != null) {
            ctx.pipeline().replace(IDLE, IDLE, idleHandler(connection.protocol(), connection.timeoutMillis()));
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof TooLongFrameException && connection.isOpen()) {
            connection.closeWith(NettyPushConnection.TOO_BIG, "message over the size limit");
            return;
        }
        if (cause instanceof CorruptedFrameException) {
            connection.abandon(); // Netty's decoder or validator already sent the close frame
            return;
        }
        ctx.close(); // resets and the like: the peer is gone
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        if (connection.ended()) {
            openConnections.decrementAndGet();
            session.closed();
        }
        super.channelInactive(ctx);
    }
}
