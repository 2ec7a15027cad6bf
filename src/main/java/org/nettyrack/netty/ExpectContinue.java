package org.nettyrack.netty;

import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerExpectContinueHandler;
import io.netty.handler.codec.http.HttpUtil;

/**
 * Netty's {@code Expect: 100-continue} handler with one decision added: a client that
 * announces a body over the size limit gets 413 (and the connection closes) instead of a
 * 100 Continue it would answer by uploading for nothing.
 */
final class ExpectContinue extends HttpServerExpectContinueHandler {
    private final long maxBodySize;

    ExpectContinue(long maxBodySize) {
        this.maxBodySize = maxBodySize;
    }

    @Override
    protected HttpResponse acceptMessage(HttpRequest request) {
        if (HttpUtil.getContentLength(request, -1L) > maxBodySize) {
            return null;
        }
        return super.acceptMessage(request);
    }

    @Override
    protected HttpResponse rejectResponse(HttpRequest request) {
        FullHttpResponse response = ErrorResponses.plain(HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE, true);
        return response;
    }
}
