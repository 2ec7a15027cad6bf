package org.nettyrack.netty;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.netty.util.ReferenceCountUtil;
import java.util.List;

/**
 * Sits right after the decoder and lets only well-formed requests through. It answers
 * malformed ones itself and closes the connection: 414 for a request line over the limit,
 * 431 for a header block or header count over the limit, 400 for the rest (bad syntax,
 * Content-Length with Transfer-Encoding, duplicate or invalid Content-Length, a
 * Transfer-Encoding other than chunked, a missing or repeated Host on HTTP/1.1, a target that
 * is neither origin, absolute nor asterisk form). After a refusal everything else the
 * connection sends is dropped.
 */
final class RequestGuard extends ChannelInboundHandlerAdapter {
    private final int maxHeaders;
    private boolean refused;

    RequestGuard(int maxHeaders) {
        this.maxHeaders = maxHeaders;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (refused) {
            ReferenceCountUtil.release(msg);
            return;
        }
        HttpResponseStatus problem = msg instanceof HttpObject ? check((HttpObject) msg) : null;
        if (problem != null) {
            refused = true;
            ReferenceCountUtil.release(msg);
            ErrorResponses.sendAndClose(ctx, problem);
            return;
        }
        ctx.fireChannelRead(msg);
    }

    private HttpResponseStatus check(HttpObject msg) {
        DecoderResult result = msg.decoderResult();
        if (result.isFailure()) {
            Throwable cause = result.cause();
            if (cause instanceof TooLongHttpLineException) {
                return HttpResponseStatus.REQUEST_URI_TOO_LONG;
            }
            if (cause instanceof TooLongHttpHeaderException) {
                return HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE;
            }
            return HttpResponseStatus.BAD_REQUEST;
        }
        return msg instanceof HttpRequest ? checkHead((HttpRequest) msg) : null;
    }

    private HttpResponseStatus checkHead(HttpRequest request) {
        HttpHeaders headers = request.headers();
        if (headers.size() > maxHeaders) {
            return HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE;
        }
        List<String> encodings = headers.getAll(HttpHeaderNames.TRANSFER_ENCODING);
        if (!encodings.isEmpty()
            && (encodings.size() > 1 || !HttpHeaderValues.CHUNKED.contentEqualsIgnoreCase(encodings.get(0).trim()))) {
            return HttpResponseStatus.BAD_REQUEST;
        }
        if (request.protocolVersion().equals(HttpVersion.HTTP_1_1) && headers.getAll(HttpHeaderNames.HOST).size() != 1) {
            return HttpResponseStatus.BAD_REQUEST;
        }
        return validTarget(request.uri()) ? null : HttpResponseStatus.BAD_REQUEST;
    }

    private static boolean validTarget(String target) {
        if (target.isEmpty()) {
            return false;
        }
        for (int i = 0; i < target.length(); i++) {
            char c = target.charAt(i);
            if (c <= ' ' || c >= 0x7f) {
                return false;
            }
        }
        return target.charAt(0) == '/' || target.equals("*")
            || target.regionMatches(true, 0, "http://", 0, 7) || target.regionMatches(true, 0, "https://", 0, 8);
    }
}
