package org.nettyrack.netty.http2;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.http2.Http2CodecUtil;
import java.util.List;
import org.nettyrack.netty.exchange.RequestStage;
import org.nettyrack.netty.pipeline.PipelineNames;

/**
 * On a cleartext port with h2c on, just before the HTTP/1.1 decoder: reads a connection's first
 * bytes. The HTTP/2 connection preface ({@code PRI * HTTP/2.0...}, prior knowledge, RFC 9113
 * 3.3) makes the connection HTTP/2 ({@link Http2Support#configure}); anything else leaves it to
 * HTTP/1.1 as soon as a byte differs, so a short HTTP/1.1 request is never held back. Either
 * way this handler then leaves the pipeline, passing on the bytes it held. (Netty's
 * {@code CleartextHttp2ServerUpgradeHandler} does the same, but only with its
 * {@code HttpServerCodec}, which this pipeline replaces with its own decoder.)
 */
public final class Http2Preface extends ByteToMessageDecoder {
    private static final ByteBuf PREFACE = Http2CodecUtil.connectionPrefaceBuf();

    private final RequestStage stage;

    public Http2Preface(RequestStage stage) {
        this.stage = stage;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        int seen = Math.min(in.readableBytes(), PREFACE.readableBytes());
        ChannelPipeline p = ctx.pipeline();
        if (!ByteBufUtil.equals(PREFACE, PREFACE.readerIndex(), in, in.readerIndex(), seen)) {
            p.remove(this);
        } else if (seen == PREFACE.readableBytes()) {
            if (p.get(PipelineNames.H2C_UPGRADE) != null) {
                p.remove(PipelineNames.H2C_UPGRADE);
            }
            Http2Support.configure(p, stage);
            p.remove(this);
        }
    }
}
