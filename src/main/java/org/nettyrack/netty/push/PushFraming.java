package org.nettyrack.netty.push;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.socket.DuplexChannel;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.handler.codec.http.websocketx.PingWebSocketFrame;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import org.nettyrack.core.Upgrade;
import org.nettyrack.core.push.SseEvent;

/** How a push connection's messages, keep-alives and close look on the wire. */
interface PushFraming {
    Upgrade protocol();

    /** The message to write, around its payload ({@link SharedPayload}). */
    Object message(ByteBuf payload, boolean text);

    Object keepAlive();

    /** Writes the end of the conversation: a close frame, or the end of the event stream. */
    ChannelFuture close(Channel channel, int code, String reason);

    /**
     * Ends a conversation that cannot go on. WebSocket (RFC 6455 7.1.7, fail the connection): the
     * close frame, then the end of our half of the TCP connection, and reading goes on until the
     * peer ends its half. Closing the socket outright while the peer is still sending (the rest
     * of an over-long message) would answer it with a reset, which can destroy the close frame
     * before the peer reads it. SSE: the end of the stream, as {@link #close}.
     */
    default ChannelFuture fail(Channel channel, int code, String reason) {
        return close(channel, code, reason);
    }

    /** RFC 6455 frames, after the opening handshake. */
    PushFraming WEBSOCKET = new PushFraming() {
        @Override
        public Upgrade protocol() {
            return Upgrade.WEBSOCKET;
        }

        @Override
        public Object message(ByteBuf payload, boolean text) {
            return text ? new TextWebSocketFrame(payload) : new BinaryWebSocketFrame(payload);
        }

        @Override
        public Object keepAlive() {
            return new PingWebSocketFrame();
        }

        @Override
        public ChannelFuture close(Channel channel, int code, String reason) {
            return channel.writeAndFlush(new CloseWebSocketFrame(code, reason));
        }

        @Override
        public ChannelFuture fail(Channel channel, int code, String reason) {
            ChannelFuture sent = close(channel, code, reason);
            if (channel instanceof DuplexChannel duplex) {
                sent.addListener(f -> duplex.shutdownOutput());
            }
            return sent;
        }
    };

    /** Chunks of an HTTP response body that is a text/event-stream. */
    PushFraming SSE = new PushFraming() {
        @Override
        public Upgrade protocol() {
            return Upgrade.SSE;
        }

        @Override
        public Object message(ByteBuf payload, boolean text) {
            return new DefaultHttpContent(payload);
        }

        @Override
        public Object keepAlive() {
            return new DefaultHttpContent(Unpooled.wrappedBuffer(SseEvent.COMMENT));
        }

        @Override
        public ChannelFuture close(Channel channel, int code, String reason) {
            ChannelFuture last = channel.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT);
            last.addListener(ChannelFutureListener.CLOSE);
            return last;
        }
    };
}
