package org.nettyrack.netty.http2;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http2.Http2FrameStream;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.handler.codec.http2.Http2StreamFrame;
import io.netty.handler.codec.http2.Http2StreamFrameToHttpObjectCodec;
import io.netty.handler.codec.http2.HttpConversionUtil;
import java.util.List;
import org.nettyrack.netty.response.DateHeader;

/**
 * First in each HTTP/2 stream's pipeline: Netty's stream codec (frames in, the HTTP/1.1 path's
 * {@code HttpRequest}/{@code HttpContent} objects out, and back), plus the two things every
 * stream needs on the way, done here rather than by two more handlers per stream: the request
 * head is cleaned by {@link Http2Request#clean}, and a response gets its {@code date} field
 * ({@link DateHeader#stamp}). A request that ends with its HEADERS (a GET, the usual case)
 * becomes one full request with no buffer allocated for its empty body. One instance serves
 * every stream of the server.
 */
@ChannelHandler.Sharable
final class Http2StreamCodec extends Http2StreamFrameToHttpObjectCodec {
    static final Http2StreamCodec INSTANCE = new Http2StreamCodec();

    private Http2StreamCodec() {
        super(true, false);
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, Http2StreamFrame frame, List<Object> out) throws Exception {
        if (frame instanceof Http2HeadersFrame headers && headers.isEndStream() && headers.headers().method() != null) {
            out.add(wholeRequest(headers.stream(), headers.headers()));
        } else {
            super.decode(ctx, frame, out);
        }
        if (!out.isEmpty() && out.get(0) instanceof HttpRequest request) {
            Http2Request.clean(ctx.channel(), request);
        }
    }

    private static HttpRequest wholeRequest(Http2FrameStream stream, Http2Headers headers) throws Exception {
        return HttpConversionUtil.toFullHttpRequest(stream == null ? 0 : stream.id(), headers, Unpooled.EMPTY_BUFFER, false);
    }

    @Override
    protected void encode(ChannelHandlerContext ctx, HttpObject obj, List<Object> out) throws Exception {
        if (obj instanceof HttpResponse response) {
            DateHeader.INSTANCE.stamp(response);
        }
        super.encode(ctx, obj, out);
    }
}
