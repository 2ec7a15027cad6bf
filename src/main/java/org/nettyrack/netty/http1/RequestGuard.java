package org.nettyrack.netty.http1;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.netty.util.ReferenceCountUtil;
import java.util.ArrayList;
import java.util.List;
import org.nettyrack.core.HostHeader;

/**
 * Sits right after the decoder and lets only well-formed requests through. It answers
 * malformed ones itself and closes the connection:
 * <ul>
 * <li>414 for a request line over the limit; 431 for a header block or header count over it;</li>
 * <li>505 for an HTTP version other than 1.0 and 1.1 in a request line (HTTP/2 comes by its
 * preface or ALPN, and its streams reach this guard as HTTP/1.1 objects);</li>
 * <li>501 for a transfer coding other than chunked applied before the final chunked
 * ({@code gzip, chunked}: RFC 9112 6.1, "a server that receives a request message with a
 * transfer coding it does not understand SHOULD respond with 501");</li>
 * <li>400 for the rest: bad syntax, a final transfer coding other than chunked (6.3: the
 * length "cannot be determined reliably; the server MUST respond with 400"), chunked twice,
 * Content-Length with Transfer-Encoding, duplicate or invalid Content-Length, a missing,
 * repeated or invalid Host ({@link HostHeader}; a repeated Content-Length or Host on HTTP/1.0
 * too; on HTTP/2, {@code :authority} comes here as Host), a target that is neither
 * origin form, absolute form with a host, nor asterisk form on an OPTIONS request.</li>
 * </ul>
 * The answer is a {@link Refusal} for the dispatcher to send in request order; everything the
 * connection sends after it is dropped.
 */
public final class RequestGuard extends ChannelInboundHandlerAdapter {
    private final int maxHeaders;
    private boolean refused;

    public RequestGuard(int maxHeaders) {
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
            boolean head = msg instanceof HttpRequest && HttpMethod.HEAD.equals(((HttpRequest) msg).method());
            ReferenceCountUtil.release(msg);
            ctx.fireChannelRead(new Refusal(problem, head)); // answered in turn, after what came before
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
        HttpVersion version = request.protocolVersion();
        if (!"HTTP".equals(version.protocolName())) {
            return HttpResponseStatus.BAD_REQUEST;
        }
        if (version.majorVersion() != 1 || version.minorVersion() > 1) {
            return HttpResponseStatus.HTTP_VERSION_NOT_SUPPORTED;
        }
        HttpResponseStatus coding = checkTransferCoding(headers.getAll(HttpHeaderNames.TRANSFER_ENCODING));
        if (coding != null) {
            return coding;
        }
        List<String> hosts = headers.getAll(HttpHeaderNames.HOST);
        if (hosts.size() > 1 || hosts.isEmpty() && version.equals(HttpVersion.HTTP_1_1)
            || hosts.size() == 1 && !HostHeader.valid(hosts.get(0).trim())) {
            return HttpResponseStatus.BAD_REQUEST;
        }
        return validTarget(request.method(), request.uri()) ? null : HttpResponseStatus.BAD_REQUEST;
    }

    /** Null when the codings are absent or exactly chunked; see the class comment for the rest. */
    private static HttpResponseStatus checkTransferCoding(List<String> fields) {
        if (fields.isEmpty()) {
            return null;
        }
        List<String> codings = new ArrayList<>(2);
        for (String field : fields) {
            for (String coding : field.split(",", -1)) {
                String name = coding.trim();
                if (!name.isEmpty()) {
                    codings.add(name);
                }
            }
        }
        if (codings.isEmpty() || !HttpHeaderValues.CHUNKED.contentEqualsIgnoreCase(codings.get(codings.size() - 1))) {
            return HttpResponseStatus.BAD_REQUEST;
        }
        for (int i = 0; i < codings.size() - 1; i++) {
            if (HttpHeaderValues.CHUNKED.contentEqualsIgnoreCase(codings.get(i))) {
                return HttpResponseStatus.BAD_REQUEST;
            }
        }
        return codings.size() == 1 ? null : HttpResponseStatus.NOT_IMPLEMENTED;
    }

    /** Origin form, absolute form with a host, or asterisk form for OPTIONS (RFC 9112 3.2), in visible ASCII. */
    private static boolean validTarget(HttpMethod method, String target) {
        if (target.isEmpty()) {
            return false;
        }
        for (int i = 0; i < target.length(); i++) {
            char c = target.charAt(i);
            if (c <= ' ' || c >= 0x7f) {
                return false;
            }
        }
        if (target.charAt(0) == '/') {
            return true;
        }
        if (target.equals("*")) {
            return HttpMethod.OPTIONS.equals(method);
        }
        int authority = target.regionMatches(true, 0, "http://", 0, 7) ? 7
            : target.regionMatches(true, 0, "https://", 0, 8) ? 8 : -1;
        return authority > 0 && authority < target.length() && target.charAt(authority) != '/';
    }
}
