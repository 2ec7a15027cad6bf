package org.nettyrack.netty;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.handler.codec.http.websocketx.PingWebSocketFrame;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import org.nettyrack.core.push.SseEvent;
import org.nettyrack.core.push.Upgrade;

/** How a push connection's messages, keep-alives and close look on the wire. */
interface PushFraming {
    Upgrade protocol();

    /** The message to write; wraps the array without copying. */
    Object message(byte[] data, boolean text);

    Object keepAlive();

    /** Writes the end of the conversation: a close frame, or the end of the event stream. */
    ChannelFuture close(Channel channel, int code, String reason);

    /** RFC 6455 frames, after the opening handshake. */
    PushFraming WEBSOCKET = new PushFraming() {
        @Override
        public Upgrade protocol() {
            return Upgrade.WEBSOCKET;
        }

        @Override
        public Object message(byte[] data, boolean text) {
            return text ? new TextWebSocketFrame(Unpooled.wrappedBuffer(data))
                : new BinaryWebSocketFrame(Unpooled.wrappedBuffer(data));
        }

        @Override
        public Object keepAlive() {
            return new PingWebSocketFrame();
        }

        @Override
        public ChannelFuture close(Channel channel, int code, String reason) {
            return channel.writeAndFlush(new CloseWebSocketFrame(code, reason));
        }
    };

    /** Chunks of an HTTP response body that is a text/event-stream. */
    PushFraming SSE = new PushFraming() {
        @Override
        public Upgrade protocol() {
            return Upgrade.SSE;
        }

        @Override
        public Object message(byte[] data, boolean text) {
            return new DefaultHttpContent(Unpooled.wrappedBuffer(data));
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
