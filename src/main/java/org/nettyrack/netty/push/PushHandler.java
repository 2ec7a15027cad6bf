package org.nettyrack.netty.push;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.handler.codec.http.websocketx.PingWebSocketFrame;
import io.netty.handler.codec.http.websocketx.PongWebSocketFrame;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import io.netty.handler.timeout.IdleState;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.ReferenceCountUtil;
import java.util.concurrent.TimeUnit;
import org.nettyrack.core.ErrorLog;
import org.nettyrack.core.push.IdlePolicy;
import org.nettyrack.core.push.PushClose;
import org.nettyrack.core.push.PushSession;
import org.nettyrack.netty.pipeline.ActiveRequest;
import org.nettyrack.netty.pipeline.ConnectionEvent;
import org.nettyrack.netty.pipeline.PipelineNames;
import org.nettyrack.netty.pipeline.ServerState;

/**
 * Last in an upgraded connection's pipeline; turns what arrives into {@link PushSession}
 * events. WebSocket: whole messages (Netty's aggregator joined the fragments, its validator
 * checked the UTF-8) go to {@code on_message}; pings are answered; a close frame is answered
 * and ends the connection; a message over {@code --max-message-size} closes with 1009 (one
 * that arrived in a single compressed frame is measured here, after decompression). What the
 * handlers before this one throw ends the connection as {@link PushFailure} says. SSE streams
 * receive nothing, so anything read is dropped.
 *
 * <p>Idle time: Netty's {@link IdleStateHandler}, set from the connection's {@link IdlePolicy},
 * fires the timers, and the policy says what follows (a keep-alive, or for a WebSocket silent
 * through a ping, a close with 1001). A stopping server ({@link ConnectionEvent#DRAIN}) runs
 * {@code on_shutdown}, then closes with 1001 or ends the stream.
 */
final class PushHandler extends ChannelDuplexHandler {

    private final NettyPushConnection connection;
    private final PushSession session;
    private final ActiveRequest active;
    private final int maxMessageSize;
    private final ErrorLog errorLog;
    private final IdlePolicy idle;

    /** active: the upgraded request's place in the server's count, released when the connection has ended. */
    PushHandler(NettyPushConnection connection, PushSession session, ServerState server, ActiveRequest active) {
        this.connection = connection;
        this.session = session;
        this.active = active;
        this.maxMessageSize = server.config.push().maxMessageSize();
        this.errorLog = server.errorLog;
        this.idle = connection.idle();
    }

    /** The idle timers for a connection's current timeout. */
    static IdleStateHandler idleHandler(IdlePolicy idle) {
        return new IdleStateHandler(idle.readTimeoutMillis(), idle.writeTimeoutMillis(), 0, TimeUnit.MILLISECONDS);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        idle.heard();
        try {
            if (msg instanceof TextWebSocketFrame || msg instanceof BinaryWebSocketFrame) {
                ByteBuf content = ((WebSocketFrame) msg).content();
                if (content.readableBytes() > maxMessageSize) {
                    end(ctx, PushFailure.TOO_BIG, null);
                    return;
                }
                byte[] data = ByteBufUtil.getBytes(content);
                if (connection.isOpen() && !session.message(data, msg instanceof TextWebSocketFrame)) {
                    ctx.channel().config().setAutoRead(false); // resumed by the session
                }
            } else if (msg instanceof PingWebSocketFrame) {
                ctx.writeAndFlush(new PongWebSocketFrame(((PingWebSocketFrame) msg).content().retain()));
            } else if (msg instanceof CloseWebSocketFrame) {
                int code = ((CloseWebSocketFrame) msg).statusCode();
                connection.peerClosed(code < 0 ? PushClose.NORMAL : code);
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
            IdlePolicy.Action action = state == IdleState.READER_IDLE
                ? idle.silent(!ctx.channel().config().isAutoRead())
                : state == IdleState.WRITER_IDLE ? idle.quiet() : IdlePolicy.Action.NOTHING;
            switch (action) {
                case KEEP_ALIVE -> connection.keepAlive();
                case CLOSE -> connection.closeWith(PushClose.IDLE);
                case NOTHING -> { }
            }
            return;
        }
        if (evt instanceof ChannelInputShutdownEvent) {
            ctx.close(); // the peer closed its side (without a close frame): nothing more can come
            return;
        }
        if (evt == ConnectionEvent.DRAIN) {
            connection.shutdown();
            return;
        }
        super.userEventTriggered(ctx, evt);
    }

    /** Replaces the idle timer after {@code client.timeout =}; runs on the event loop. */
    void timeoutChanged(ChannelHandlerContext ctx) {
        if (ctx != null && !ctx.isRemoved() && ctx.pipeline().get(PipelineNames.PUSH_IDLE) != null) {
            ctx.pipeline().replace(PipelineNames.PUSH_IDLE, PipelineNames.PUSH_IDLE, idleHandler(idle));
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        end(ctx, PushFailure.of(cause), cause);
    }

    private void end(ChannelHandlerContext ctx, PushFailure failure, Throwable cause) {
        switch (failure.ending()) {
            case CLOSE -> connection.closeWith(failure.close());
            case FAIL -> {
                if (failure.unexpected() && connection.isOpen()) {
                    errorLog.report("push connection closed with " + failure.code(), cause);
                }
                connection.fail(failure.close());
            }
            case GONE -> ctx.close();
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        if (connection.ended()) {
            active.release();
            session.closed();
        }
        super.channelInactive(ctx);
    }
}
