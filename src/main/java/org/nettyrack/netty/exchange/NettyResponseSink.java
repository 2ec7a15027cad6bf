package org.nettyrack.netty.exchange;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpHeadersFactory;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.EmptyHttpHeaders;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpHeadersFactory;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.Promise;
import java.io.IOException;
import java.nio.file.Path;
import org.nettyrack.core.PushEndpoint;
import org.nettyrack.core.RequestId;
import org.nettyrack.core.ResponseCycle;
import org.nettyrack.core.ResponseHeaders;
import org.nettyrack.netty.files.EncodedSink;
import org.nettyrack.netty.files.FileBodies;
import org.nettyrack.netty.hijack.NettyHijack;
import org.nettyrack.netty.pipeline.PipelineNames;
import org.nettyrack.netty.pipeline.ServerState;
import org.nettyrack.netty.pipeline.Wire;
import org.nettyrack.netty.push.PushUpgrade;
import org.nettyrack.netty.response.ErrorResponses;
import org.nettyrack.netty.response.ResponseFraming;

/**
 * Writes one response onto a Netty channel from the worker thread that runs the app, framed
 * as {@link ResponseFraming} decides (an HTTP/2 stream's codec turns the same objects into
 * frames), and closes the connection after it when the framing says it does not stay.
 * A streamed response's head waits for its first body bytes (or its end), so an application
 * that fails before producing any still gets a proper error response instead of a cut one.
 * Streaming writes wait while the channel is not writable ({@link WriteBackpressure}).
 * Files leave through {@link FileBodies}; a 103 Early Hints may precede the response while
 * nothing of it has left (on an HTTP/2 stream the codec makes it a HEADERS frame with
 * {@code :status 103} and no END_STREAM).
 *
 * <p>The sink knows nothing of who made it: {@link #done()} completes on the event loop with
 * the exchange's {@link ResponseOutcome}: responded once the last write completed (or
 * failed), upgraded once the application accepted an upgrade (for the dispatcher to hand on
 * to {@link PushUpgrade}), hijacked once the connection is the application's.
 */
public final class NettyResponseSink implements EncodedSink {
    private static final HttpHeadersFactory HEADERS = DefaultHttpHeadersFactory.headersFactory().withValidation(false);

    private final Channel channel;
    private final NettyRackRequest request;
    private final ServerState server;
    private final Wire wire;
    private final Promise<ResponseOutcome> done;
    private final WriteBackpressure backpressure;
    private final ResponseCycle cycle = new ResponseCycle();
    private HttpResponse pendingHead;
    private boolean keepAlive;
    private int status;

    NettyResponseSink(Channel channel, NettyRackRequest request, ServerState server, Wire wire) {
        this.channel = channel;
        this.request = request;
        this.server = server;
        this.wire = wire;
        this.done = channel.eventLoop().newPromise();
        this.backpressure = new WriteBackpressure(channel, server.config.timeouts().writeTimeoutMillis());
    }

    /** The worker queue was full: 503 without running the application, with the request's {@code x-request-id}. */
    void unavailable() {
        cycle.whole(0);
        status = HttpResponseStatus.SERVICE_UNAVAILABLE.code();
        keepAlive = connectionStays();
        HttpResponse refused = ErrorResponses.plain(HttpResponseStatus.SERVICE_UNAVAILABLE, !keepAlive, request.isHead());
        refused.headers().set(RequestId.HEADER, request.requestId());
        finish(channel.writeAndFlush(refused), false);
    }

    NettyRackRequest request() {
        return request;
    }

    /** Completes, on the event loop, with how the exchange ended. */
    Future<ResponseOutcome> done() {
        return done;
    }

    @Override
    public boolean committed() {
        return cycle.committed();
    }

    @Override
    public boolean finished() {
        return cycle.finished();
    }

    @Override
    public void respond(int status, ResponseHeaders headers, byte[] body, int offset, int length) {
        ResponseFraming framing = start(status, headers);
        ByteBuf content = Unpooled.EMPTY_BUFFER;
        boolean withBody = cycle.bodyAllowed() && length > 0;
        if (withBody) {
            content = channel.alloc().buffer(length).writeBytes(body, offset, length);
        }
        HttpHeaders out = framing.whole(length);
        keepAlive = framing.keepAlive();
        cycle.whole(withBody ? length : 0);
        finish(channel.writeAndFlush(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.valueOf(status),
            content, out, EmptyHttpHeaders.INSTANCE)), false);
    }

    /**
     * A whole HTTP/1.1 response, head and body, encoded already (a small public file's usual
     * answer, see {@code PublicFiles}), written as it is past the response encoder. Only for an
     * HTTP/1.1 connection that stays open, about which such a response need say nothing;
     * false, with nothing written, otherwise (HTTP/1.0, {@code connection: close}, draining,
     * an HTTP/2 stream).
     */
    @Override
    public boolean respondEncoded(int status, ByteBuf response, int bodyLength) {
        ChannelHandlerContext encoder = channel.pipeline().context(PipelineNames.ENCODER);
        if (cycle.committed() || encoder == null || !connectionStays() || !http11()) {
            return false;
        }
        this.status = status;
        keepAlive = true;
        cycle.whole(bodyLength);
        finish(encoder.writeAndFlush(response), false);
        return true;
    }

    @Override
    public void begin(int status, ResponseHeaders headers, long contentLength) {
        ResponseFraming framing = start(status, headers);
        cycle.declare(framing.streamed(contentLength));
        keepAlive = framing.keepAlive();
        pendingHead = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.valueOf(status), framing.settled());
    }

    /** Sends the head {@link #begin} recorded: from here on the response cannot be replaced. */
    private void commit() {
        if (pendingHead != null) {
            cycle.commit();
            channel.write(pendingHead);
            pendingHead = null;
        }
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
        if (!cycle.bodyAllowed() || length == 0) {
            return;
        }
        commit();
        backpressure.await();
        ByteBuf buf = channel.alloc().buffer(length).writeBytes(bytes, offset, length);
        cycle.sent(length);
        channel.writeAndFlush(new DefaultHttpContent(buf));
    }

    @Override
    public void sendFile(Path file, long offset, long length) throws IOException {
        if (!cycle.bodyAllowed() || length == 0) {
            return;
        }
        commit();
        if (!channel.eventLoop().inEventLoop()) {
            backpressure.await(); // the region itself holds no heap: on the event loop there is no one to wait for
        }
        cycle.sent(length);
        FileBodies.write(channel, wire, file, offset, length);
    }

    @Override
    public boolean honoursSendfile() {
        return server.config.fileSettings().files().sendfile();
    }

    @Override
    public boolean acceptsEarlyHints() {
        return server.config.fileSettings().earlyHints() && !cycle.committed() && pendingHead == null && http11();
    }

    /** A 103 before the final response (RFC 8297); nothing once the response has begun. */
    @Override
    public void earlyHints(ResponseHeaders headers) throws IOException {
        if (!acceptsEarlyHints() || headers.size() == 0) {
            return;
        }
        HttpHeaders out = HEADERS.newHeaders();
        for (int i = 0; i < headers.size(); i++) {
            out.add(headers.name(i), headers.value(i));
        }
        backpressure.await();
        channel.writeAndFlush(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.EARLY_HINTS,
            Unpooled.EMPTY_BUFFER, out, EmptyHttpHeaders.INSTANCE));
    }

    @Override
    public void end() {
        if (!cycle.finish()) {
            return;
        }
        commit();
        finish(channel.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT), cycle.truncated());
    }

    @Override
    public void abort() {
        if (!cycle.finish()) {
            return;
        }
        finish(channel.close(), true);
    }

    /**
     * Records the accepted upgrade and completes {@link #done()} on the event loop, where the
     * dispatcher hands the connection to {@link PushUpgrade} (or refuses it).
     */
    @Override
    public void upgrade(int status, ResponseHeaders headers, PushEndpoint endpoint) {
        cycle.upgrade(request.upgrade());
        pendingHead = null;
        ResponseOutcome upgraded = new ResponseOutcome.Upgraded(status, headers, endpoint);
        channel.eventLoop().execute(() -> done.trySuccess(upgraded));
    }

    /**
     * {@code rack.hijack}: {@link NettyHijack} moves the connection to the application;
     * {@link #done()} completes once it has, on the event loop. A full hijack's status is
     * unknown to the server (the application writes it) and is logged as 0.
     */
    @Override
    public org.nettyrack.core.Hijack hijack(int status, ResponseHeaders headers) {
        cycle.handOver();
        pendingHead = null;
        ResponseOutcome hijacked = new ResponseOutcome.Hijacked(headers == null ? 0 : status);
        return new NettyHijack(channel, wire, status, headers, server.config.timeouts().keepAliveTimeoutMillis(),
            () -> done.trySuccess(hijacked));
    }

    void wakeWriter() {
        backpressure.wake();
    }

    /** Decides the framing of the response the application gives; an error response replaces a head that never left. */
    private ResponseFraming start(int status, ResponseHeaders headers) {
        cycle.requireNotStarted();
        pendingHead = null;
        this.status = status;
        ResponseFraming framing = new ResponseFraming(http11(), request.isHead(), connectionStays(), status, headers);
        cycle.start(framing.bodyAllowed());
        return framing;
    }

    /** Whether the request lets the connection stay open after this response (the server not draining). */
    private boolean connectionStays() {
        return request.keepAlive() && !server.draining;
    }

    private boolean http11() {
        return HttpVersion.HTTP_1_1.equals(request.head().protocolVersion());
    }

    private void finish(ChannelFuture last, boolean truncated) {
        if (channel.eventLoop().isShuttingDown()) {
            return; // a request that outlived the shutdown timeout: nobody is left to tell
        }
        if (truncated || !keepAlive) {
            last.addListener(ChannelFutureListener.CLOSE);
        }
        last.addListener(f -> done.trySuccess(new ResponseOutcome.Responded(status, cycle.bytesSent())));
    }
}
