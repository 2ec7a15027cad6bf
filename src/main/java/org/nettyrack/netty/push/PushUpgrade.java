package org.nettyrack.netty.push;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.DefaultHttpHeadersFactory;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.EmptyHttpHeaders;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.websocketx.Utf8FrameValidator;
import io.netty.handler.codec.http.websocketx.WebSocket13FrameDecoder;
import io.netty.handler.codec.http.websocketx.WebSocket13FrameEncoder;
import io.netty.handler.codec.http.websocketx.WebSocketDecoderConfig;
import io.netty.handler.codec.http.websocketx.WebSocketFrameAggregator;
import io.netty.handler.codec.http.websocketx.WebSocketServerHandshaker;
import io.netty.handler.codec.http.websocketx.WebSocketServerHandshakerFactory;
import io.netty.handler.codec.http.websocketx.extensions.WebSocketServerExtension;
import org.nettyrack.core.PushEndpoint;
import org.nettyrack.core.ResponseHeaders;
import org.nettyrack.core.Upgrade;
import org.nettyrack.core.config.ServerConfig;
import org.nettyrack.core.push.PushHead;
import org.nettyrack.core.push.PushSession;
import org.nettyrack.netty.pipeline.ActiveRequest;
import org.nettyrack.netty.pipeline.PipelineNames;
import org.nettyrack.netty.pipeline.ServerState;
import org.nettyrack.netty.pipeline.Wire;

/**
 * Switches an HTTP connection to push once the application has accepted the upgrade; runs on
 * the event loop, called by {@code RackDispatcher} with the {@link Handshake} to make.
 * WebSocket: Netty's handshaker answers 101 (with the application's headers, its chosen
 * subprotocol and any permessage-deflate agreement) and swaps the HTTP codec for the frame
 * codec; on an HTTP/2 stream (RFC 8441 extended CONNECT) the answer is a 200 and the stream
 * carries bytes ({@link Wire#carryBytes}) under the same frame handlers. SSE: a
 * {@code text/event-stream} response head, chunked. Which headers and status go out is the
 * core's rule ({@link PushHead}). Either way the HTTP-only handlers leave
 * ({@link PipelineNames#leaveHttp}) and a {@link PushHandler} takes over, last (the handlers:
 * docs/architecture.md). Reading stays paused until the handshake is on the wire; then
 * {@code on_open} is queued.
 */
public final class PushUpgrade {
    /**
     * An upgrade to make: the request's head, scheme and what it asked for ({@link Upgrade}), and
     * the application's answer: status, headers, and the endpoint to drive.
     */
    public record Handshake(HttpRequest head, String scheme, Upgrade protocol, int status, ResponseHeaders headers,
                            PushEndpoint endpoint) {
    }

    private PushUpgrade() {
    }

    /** What {@link #start} answers when the handshake could not be made (the caller answers 400). */
    public static final int NOT_STARTED = -1;

    /**
     * Starts the push conversation; answers the status that went out (101, or 200 on an HTTP/2
     * stream, for a WebSocket; {@link PushHead#sseStatus} for an event stream), or
     * {@link #NOT_STARTED}. active: the request's place in the server's count, which the push
     * handler releases when the connection ends (the caller releases it when not started).
     */
    public static int start(Channel channel, ServerState server, Wire wire, Handshake accepted, ActiveRequest active) {
        ServerConfig config = server.config;
        Upgrade protocol = accepted.protocol();
        PushFraming framing = protocol == Upgrade.WEBSOCKET ? PushFraming.WEBSOCKET : PushFraming.SSE;
        NettyPushConnection connection = new NettyPushConnection(channel, framing, config.push().maxPushQueue(),
            config.push().pushTimeoutMillis(), server.counters);
        PushSession session = new PushSession(server.workers, accepted.endpoint(), connection,
            () -> channel.eventLoop().execute(() -> channel.config().setAutoRead(true)), server.errorLog);
        PushHandler handler = new PushHandler(connection, session, server, active);
        connection.attach(session, () -> handler.timeoutChanged(channel.pipeline().context(handler)));
        channel.config().setAutoRead(false);

        boolean stream = wire.isStream();
        if (!stream && config.push().pushSendBuffer() > 0) {
            // A client that stops reading holds at most this (doubled) in the kernel, then the queue counts.
            channel.config().setOption(ChannelOption.SO_SNDBUF, config.push().pushSendBuffer());
        }
        ChannelFuture handshake = protocol != Upgrade.WEBSOCKET ? sse(channel, accepted.head(), accepted.status(), accepted.headers())
            : stream ? websocketOverHttp2(channel, wire, accepted.head(), accepted.headers(), config)
            : websocket(channel, accepted, config);
        if (handshake == null) {
            return NOT_STARTED;
        }
        server.counters.pushOpened(protocol);
        channel.closeFuture().addListener(f -> server.counters.pushClosed(protocol));
        ChannelPipeline p = channel.pipeline();
        PipelineNames.leaveHttp(p);
        p.addLast(PipelineNames.PUSH_IDLE, PushHandler.idleHandler(connection.idle()));
        p.addLast(PipelineNames.PUSH, handler);
        handshake.addListener(f -> {
            if (f.isSuccess()) {
                session.opened();
                channel.config().setAutoRead(true);
            } else {
                channel.close(); // PushHandler sees it go and queues on_close
            }
        });
        return protocol != Upgrade.WEBSOCKET ? PushHead.sseStatus(accepted.status())
            : stream ? HttpResponseStatus.OK.code() : HttpResponseStatus.SWITCHING_PROTOCOLS.code();
    }

    private static WebSocketServerExtension deflate(HttpRequest head, ServerConfig config) {
        return WebSocketDeflate.negotiate(head.headers().get(HttpHeaderNames.SEC_WEBSOCKET_EXTENSIONS), config.push().maxMessageSize());
    }

    /**
     * Protocol violations are thrown, not answered, by the decoder and validator: PushHandler
     * sends the close frame without dropping the connection under a client still sending.
     */
    private static WebSocketDecoderConfig decoderConfig(WebSocketServerExtension deflate, ServerConfig config) {
        return WebSocketDecoderConfig.newBuilder()
            .maxFramePayloadLength(deflate == null ? config.push().maxMessageSize()
                : WebSocketDeflate.maxCompressedFrame(config.push().maxMessageSize()))
            .allowExtensions(deflate != null)
            .closeOnProtocolViolation(false)
            .build();
    }

    private static ChannelFuture websocket(Channel channel, Handshake accepted, ServerConfig config) {
        HttpRequest head = accepted.head();
        ResponseHeaders app = accepted.headers();
        WebSocketServerExtension deflate = deflate(head, config);
        WebSocketDecoderConfig decoderConfig = decoderConfig(deflate, config);
        String url = ("https".equals(accepted.scheme()) ? "wss://" : "ws://") + (head.headers().get(HttpHeaderNames.HOST, "localhost")) + head.uri();
        FullHttpRequest full = new DefaultFullHttpRequest(head.protocolVersion(), head.method(), head.uri(),
            Unpooled.EMPTY_BUFFER, head.headers(), EmptyHttpHeaders.INSTANCE);
        WebSocketServerHandshaker handshaker = new WebSocketServerHandshakerFactory(url,
            PushHead.subprotocol(app), decoderConfig).newHandshaker(full);
        if (handshaker == null) {
            return null; // Upgrade.of only lets version 13 through
        }
        HttpHeaders out = nettyHeaders(PushHead.webSocket(app));
        if (deflate != null) {
            out.set(HttpHeaderNames.SEC_WEBSOCKET_EXTENSIONS, WebSocketDeflate.responseHeader(deflate));
        }
        ChannelFuture done;
        try {
            done = handshaker.handshake(channel, full, out, channel.newPromise());
        } catch (RuntimeException invalid) {
            return null;
        }
        ChannelPipeline p = channel.pipeline();
        // The 101 has passed the pipeline already. Move the frame encoder ahead of the decoder,
        // so the deflate encoder added below compresses frames before they become bytes.
        p.remove(PipelineNames.WS_ENCODER);
        p.addBefore(PipelineNames.WS_DECODER, PipelineNames.WS_ENCODER, new WebSocket13FrameEncoder(false));
        addMessageHandlers(p, deflate, config);
        return done;
    }

    /**
     * RFC 8441: the extended CONNECT is answered 200 (HEADERS without END_STREAM, carrying the
     * application's headers, the subprotocol it chose among the client's and any
     * permessage-deflate agreement; no key, no accept), then the stream's DATA carries the
     * frames ({@code Http2StreamBytes}), paced by the stream's flow-control windows.
     */
    private static ChannelFuture websocketOverHttp2(Channel channel, Wire wire, HttpRequest head, ResponseHeaders app,
                                                    ServerConfig config) {
        WebSocketServerExtension deflate = deflate(head, config);
        HttpHeaders out = nettyHeaders(PushHead.webSocket(app));
        out.remove(HttpHeaderNames.SEC_WEBSOCKET_PROTOCOL);
        String chosen = PushHead.subprotocol(app);
        if (chosen != null && Upgrade.offersSubprotocol(head.headers().getAll(HttpHeaderNames.SEC_WEBSOCKET_PROTOCOL), chosen.trim())) {
            out.set(HttpHeaderNames.SEC_WEBSOCKET_PROTOCOL, chosen.trim());
        }
        if (deflate != null) {
            out.set(HttpHeaderNames.SEC_WEBSOCKET_EXTENSIONS, WebSocketDeflate.responseHeader(deflate));
        }
        ChannelFuture done = channel.writeAndFlush(new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK, out));
        ChannelPipeline p = channel.pipeline();
        wire.carryBytes(p);
        p.addAfter(PipelineNames.H2_BYTES, PipelineNames.WS_ENCODER, new WebSocket13FrameEncoder(false));
        p.addAfter(PipelineNames.WS_ENCODER, PipelineNames.WS_DECODER, new WebSocket13FrameDecoder(decoderConfig(deflate, config)));
        addMessageHandlers(p, deflate, config);
        return done;
    }

    /** After the frame decoder: [deflate] → UTF-8 validator → aggregator. */
    private static void addMessageHandlers(ChannelPipeline p, WebSocketServerExtension deflate, ServerConfig config) {
        String last = PipelineNames.WS_DECODER;
        if (deflate != null) {
            p.addAfter(last, PipelineNames.WS_DEFLATE_DECODER, deflate.newExtensionDecoder());
            p.addAfter(PipelineNames.WS_DEFLATE_DECODER, PipelineNames.WS_DEFLATE_ENCODER, deflate.newExtensionEncoder());
            last = PipelineNames.WS_DEFLATE_ENCODER;
        }
        p.addAfter(last, PipelineNames.WS_UTF8, new Utf8FrameValidator(false));
        p.addAfter(PipelineNames.WS_UTF8, PipelineNames.WS_AGGREGATOR, new WebSocketFrameAggregator(config.push().maxMessageSize()));
    }

    /** The event stream's head, then its body as chunks (HTTP/1.1) or up to the close (HTTP/1.0). */
    private static ChannelFuture sse(Channel channel, HttpRequest head, int status, ResponseHeaders app) {
        HttpHeaders out = nettyHeaders(PushHead.sse(app));
        if (head.protocolVersion().equals(HttpVersion.HTTP_1_1)) {
            out.set(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED);
        } else {
            out.set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        }
        HttpResponseStatus code = HttpResponseStatus.valueOf(PushHead.sseStatus(status));
        return channel.writeAndFlush(new DefaultHttpResponse(HttpVersion.HTTP_1_1, code, out));
    }

    private static HttpHeaders nettyHeaders(ResponseHeaders fields) {
        HttpHeaders out = DefaultHttpHeadersFactory.headersFactory().withValidation(false).newHeaders();
        for (int i = 0; i < fields.size(); i++) {
            out.add(fields.name(i), fields.value(i));
        }
        return out;
    }
}
