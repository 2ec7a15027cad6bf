package org.nettyrack.netty.http2;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http2.Http2Connection;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2FrameCodec;
import io.netty.handler.codec.http2.Http2LocalFlowController;
import io.netty.handler.codec.http2.Http2SettingsAckFrame;

/**
 * Sends the WINDOW_UPDATE a stream is owed when the client acknowledges our SETTINGS, which
 * Netty's local flow controller leaves unsent. With {@code --http2-initial-window} below
 * 65,535 a client may send DATA under the default window before our SETTINGS reach it. When
 * the server has consumed that data before the client's SETTINGS ACK comes, and fewer bytes
 * than half the old window since its last WINDOW_UPDATE, applying the smaller window leaves the
 * stream's window below zero on both sides with nothing more to consume: no update is due by
 * consumption, so none is sent, and the client waits for ever (curl uploading with
 * {@code --http2-initial-window 1024} stalled so, now and then). On the ACK each active
 * stream's window is checked as consumption would check it ({@code incrementWindowSize} by 0).
 * In the connection's pipeline after the multiplexer, which passes the ACK on.
 */
@ChannelHandler.Sharable
final class Http2WindowsAfterSettings extends ChannelInboundHandlerAdapter {
    static final Http2WindowsAfterSettings INSTANCE = new Http2WindowsAfterSettings();

    private Http2WindowsAfterSettings() {
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof Http2SettingsAckFrame) {
            Http2FrameCodec codec = ctx.pipeline().get(Http2FrameCodec.class);
            if (codec != null && owed(codec.connection())) {
                ctx.flush();
            }
        }
        ctx.fireChannelRead(msg);
    }

    /** True when an update was written for some stream. */
    private static boolean owed(Http2Connection connection) {
        Http2LocalFlowController flow = connection.local().flowController();
        boolean[] written = {false};
        try {
            connection.forEachActiveStream(stream -> {
                int before = flow.windowSize(stream);
                flow.incrementWindowSize(stream, 0);
                written[0] |= flow.windowSize(stream) != before;
                return true;
            });
        } catch (Http2Exception e) {
            // a stream in a state that takes no update: the codec deals with it as it comes
        }
        return written[0];
    }
}
