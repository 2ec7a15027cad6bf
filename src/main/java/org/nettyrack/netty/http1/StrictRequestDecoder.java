package org.nettyrack.netty.http1;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpRequestDecoder;
import io.netty.handler.codec.http.LastHttpContent;
import java.util.List;

/**
 * Netty's request decoder, minus two leniencies:
 * <ul>
 * <li>a message with both Content-Length and Transfer-Encoding is refused (Netty would drop
 * Content-Length and go on). That pair is the classic request-smuggling vector behind several
 * Puma CVEs; RFC 9112 6.1 lets a server reject it, and behind a proxy rejecting is the only
 * safe choice;</li>
 * <li>a chunked body whose chunk extensions outweigh its data is cut off
 * ({@link ChunkExtensionBudget}).</li>
 * </ul>
 * Either failure surfaces as a decoder result that {@link RequestGuard} answers with 400.
 */
public final class StrictRequestDecoder extends HttpRequestDecoder {
    private final ChunkExtensionBudget chunkExtensions;

    public StrictRequestDecoder(HttpDecoderConfig config, int maxChunkExtensions) {
        super(config);
        this.chunkExtensions = new ChunkExtensionBudget(maxChunkExtensions);
    }

    @Override
    protected void handleTransferEncodingChunkedWithContentLength(HttpMessage message) {
        throw new IllegalArgumentException("both Content-Length and Transfer-Encoding present");
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) throws Exception {
        int before = in.readerIndex();
        int from = out.size();
        super.decode(ctx, in, out);
        if (!chunkExtensions.account(in.readerIndex() - before, out, from)) {
            in.skipBytes(in.readableBytes());
            LastHttpContent refusal = new DefaultLastHttpContent();
            refusal.setDecoderResult(DecoderResult.failure(
                new TooLongFrameException("chunk extensions over the limit")));
            out.add(refusal);
        }
    }
}
