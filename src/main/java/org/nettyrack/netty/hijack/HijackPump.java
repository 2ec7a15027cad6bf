package org.nettyrack.netty.hijack;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.channel.socket.DuplexChannel;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import org.nettyrack.netty.pipeline.ConnectionEvent;

/**
 * The whole pipeline of a hijacked connection, one instance on each of its two channels (the
 * client's connection, and the server's end of the loopback pair whose other end the
 * application holds; see {@link NettyHijack}): bytes read on one side are written to the
 * other. Both channels live on the same event loop.
 *
 * <p>Backpressure: while the other side is not writable this side stops reading, and reads
 * again once it drains. Half-close: end of input on one side shuts the other side's output
 * once what was read is written; a channel shut both ways closes. A client that never closes
 * after the application closed its end is closed after {@code lingerMillis}. A channel
 * closing closes the other once its pending bytes are flushed; a stopping server
 * ({@link ConnectionEvent#DRAIN}) closes the connection (it belongs to the application, and
 * the server does not wait for it).
 */
final class HijackPump extends ChannelInboundHandlerAdapter {
    private final long lingerMillis;
    private Channel peer;
    private ChannelHandlerContext ctx;
    /** What arrived before {@link #peer} was set (epoll reads a half-close even with reading off). */
    private final ArrayDeque<Object> early = new ArrayDeque<>();
    private boolean earlyEnd;
    private ScheduledFuture<?> linger;

    HijackPump(long lingerMillis) {
        this.lingerMillis = lingerMillis;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    /**
     * The channel this side's bytes go to, set on the event loop once both sides are ready;
     * what arrived before goes first.
     */
    void peer(Channel peer) {
        this.peer = peer;
        for (Object msg; (msg = early.poll()) != null; ) {
            channelRead(ctx, msg);
        }
        peer.flush();
        if (earlyEnd) {
            endOfInput(ctx);
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (peer == null) {
            early.add(msg);
        } else if (peer.isActive()) {
            peer.write(msg, peer.voidPromise());
        } else {
            ReferenceCountUtil.release(msg);
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (peer == null) {
            return;
        }
        peer.flush();
        if (!peer.isWritable()) {
            ctx.channel().config().setAutoRead(false);
        }
    }

    /** This side drained (or filled): the peer, whose bytes come here, reads accordingly. */
    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (peer != null) {
            peer.config().setAutoRead(ctx.channel().isWritable());
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof ChannelInputShutdownEvent) {
            if (peer == null) {
                earlyEnd = true;
            } else {
                endOfInput(ctx);
            }
        } else if (evt == ConnectionEvent.DRAIN) {
            ctx.close();
        } else {
            ctx.fireUserEventTriggered(evt);
        }
    }

    private void endOfInput(ChannelHandlerContext ctx) {
        if (!(peer instanceof DuplexChannel)) {
            closeAfterFlush(peer);
            return;
        }
        DuplexChannel other = (DuplexChannel) peer;
        peer.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(f -> other.shutdownOutput().addListener(s -> {
            if (other.isInputShutdown()) {
                other.close();
            }
        }));
        if (!(ctx.channel() instanceof DuplexChannel self)) {
            return; // an HTTP/2 stream: the application may still write; its close ends the stream
        }
        if (self.isOutputShutdown()) {
            ctx.close();
        } else if (lingerMillis > 0) {
            linger = ctx.executor().schedule(() -> {
                peer.close();
                ctx.close();
            }, lingerMillis, TimeUnit.MILLISECONDS);
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (linger != null) {
            linger.cancel(false);
        }
        for (Object msg; (msg = early.poll()) != null; ) {
            ReferenceCountUtil.release(msg);
        }
        if (peer != null) {
            closeAfterFlush(peer);
        }
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close(); // a reset or the like: the other side closes with it
    }

    private static void closeAfterFlush(Channel channel) {
        if (channel.isActive()) {
            channel.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
        }
    }
}
