package org.nettyrack.netty;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.concurrent.ScheduledFuture;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * First in the pipeline, it bounds the time a connection may hold the server without asking
 * anything of the application:
 * <ul>
 * <li>a new connection, or one that began sending a request, has the header timeout to
 * deliver a complete request head (slow-loris defence); on expiry it gets 408 and is closed;</li>
 * <li>an idle keep-alive connection is closed after the keep-alive timeout.</li>
 * </ul>
 * While a request is being served nothing is timed here. The dispatcher reports the cycle
 * with {@link ConnectionEvent}s.
 */
final class RequestTimeouts extends ChannelInboundHandlerAdapter {
    private static final byte[] REQUEST_TIMEOUT = ("HTTP/1.1 408 Request Timeout\r\n"
        + "content-type: text/plain\r\ncontent-length: 20\r\nconnection: close\r\n\r\n"
        + "408 Request Timeout\n").getBytes(StandardCharsets.US_ASCII);

    private enum State { IDLE, READING_HEAD, BUSY }

    private final long headerTimeoutMillis;
    private final long keepAliveTimeoutMillis;
    private State state = State.IDLE;
    private ScheduledFuture<?> timer;

    RequestTimeouts(long headerTimeoutMillis, long keepAliveTimeoutMillis) {
        this.headerTimeoutMillis = headerTimeoutMillis;
        this.keepAliveTimeoutMillis = keepAliveTimeoutMillis;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        enter(ctx, State.READING_HEAD);
        super.channelActive(ctx);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (state == State.IDLE && msg instanceof ByteBuf && ((ByteBuf) msg).isReadable()) {
            enter(ctx, State.READING_HEAD);
        }
        ctx.fireChannelRead(msg);
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (evt == ConnectionEvent.REQUEST_HEAD) {
            enter(ctx, State.BUSY);
        } else if (evt == ConnectionEvent.IDLE) {
            enter(ctx, State.IDLE);
        }
        super.userEventTriggered(ctx, evt);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        cancel();
        super.channelInactive(ctx);
    }

    private void enter(ChannelHandlerContext ctx, State next) {
        cancel();
        state = next;
        if (next == State.READING_HEAD) {
            timer = ctx.executor().schedule(() -> expire(ctx), headerTimeoutMillis, TimeUnit.MILLISECONDS);
        } else if (next == State.IDLE) {
            timer = ctx.executor().schedule(() -> expire(ctx), keepAliveTimeoutMillis, TimeUnit.MILLISECONDS);
        }
    }

    private void expire(ChannelHandlerContext ctx) {
        timer = null;
        if (state == State.READING_HEAD) {
            ctx.writeAndFlush(Unpooled.wrappedBuffer(REQUEST_TIMEOUT)).addListener(ChannelFutureListener.CLOSE);
        } else if (state == State.IDLE) {
            ctx.close();
        }
    }

    private void cancel() {
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
    }
}
