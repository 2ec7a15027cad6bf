package org.nettyrack.netty;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http2.DefaultHttp2DataFrame;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.DefaultHttp2ResetFrame;
import io.netty.handler.codec.http2.Http2ChannelDuplexHandler;
import io.netty.handler.codec.http2.Http2DataFrame;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2FrameStream;
import io.netty.handler.codec.http2.Http2GoAwayFrame;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.handler.codec.http2.Http2ResetFrame;
import io.netty.handler.codec.http2.Http2SettingsFrame;
import io.netty.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * An HTTP/2 client made of Netty's client frame codec on an {@link EmbeddedChannel}, wired to
 * the server's {@link EmbeddedChannel}: every call moves the bytes both ways until neither side
 * has anything more to say. What the server sent is kept as simple records.
 */
public final class H2Client extends Http2ChannelDuplexHandler {
    /** A response on one stream: its headers (the final ones), body text, and whether it ended. */
    public static final class Response {
        public Http2Headers headers;
        public final StringBuilder body = new StringBuilder();
        public boolean ended;
    }

    final EmbeddedChannel channel;
    private final EmbeddedChannel server;
    public final List<Http2SettingsFrame> settings = new ArrayList<>();
    /** The GOAWAY frames received: last stream id and error code of each. */
    public final List<long[]> goAways = new ArrayList<>();
    final java.util.Map<Integer, Response> responses = new java.util.HashMap<>();
    /** The RST_STREAM frames received: error code by stream id. */
    public final java.util.Map<Integer, Long> resets = new java.util.HashMap<>();

    public H2Client(EmbeddedChannel server) {
        this.server = server;
        this.channel = new EmbeddedChannel(Http2FrameCodecBuilder.forClient()
            .encoderIgnoreMaxHeaderListSize(true).build(), this);
        pump();
    }

    public static Http2Headers get(String path) {
        return new DefaultHttp2Headers().method("GET").scheme("http").authority("example.test").path(path);
    }

    public static Http2Headers post(String path) {
        return new DefaultHttp2Headers().method("POST").scheme("http").authority("example.test").path(path);
    }

    public Http2FrameStream send(Http2Headers headers, boolean endStream) {
        Http2FrameStream stream = newStream();
        channel.writeAndFlush(new DefaultHttp2HeadersFrame(headers, endStream).stream(stream));
        pump();
        return stream;
    }

    public void data(Http2FrameStream stream, String text, boolean endStream) {
        ByteBuf bytes = Unpooled.copiedBuffer(text, StandardCharsets.UTF_8);
        channel.writeAndFlush(new DefaultHttp2DataFrame(bytes, endStream).stream(stream));
        pump();
    }

    public void trailers(Http2FrameStream stream, Http2Headers trailers) {
        channel.writeAndFlush(new DefaultHttp2HeadersFrame(trailers, true).stream(stream));
        pump();
    }

    public void reset(Http2FrameStream stream) {
        channel.writeAndFlush(new DefaultHttp2ResetFrame(Http2Error.CANCEL).stream(stream));
        pump();
    }

    public Response response(Http2FrameStream stream) {
        return responses.get(stream.id());
    }

    /** Moves bytes between the two channels, and runs their tasks, until both are quiet. */
    public void pump() {
        boolean moved = true;
        while (moved) {
            moved = false;
            server.runPendingTasks();
            channel.runPendingTasks();
            for (Object msg; (msg = channel.readOutbound()) != null; ) {
                moved = true;
                if (server.isActive()) {
                    server.writeInbound(msg);
                } else {
                    ReferenceCountUtil.release(msg);
                }
            }
            for (Object msg; (msg = server.readOutbound()) != null; ) {
                moved = true;
                channel.writeInbound(msg);
            }
        }
        if (!server.isActive() && channel.isActive()) {
            channel.close();
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        try {
            if (msg instanceof Http2SettingsFrame) {
                settings.add((Http2SettingsFrame) msg);
            } else if (msg instanceof Http2GoAwayFrame) {
                Http2GoAwayFrame goAway = (Http2GoAwayFrame) msg;
                goAways.add(new long[] {goAway.lastStreamId(), goAway.errorCode()});
            } else if (msg instanceof Http2HeadersFrame) {
                Http2HeadersFrame frame = (Http2HeadersFrame) msg;
                Response r = responses.computeIfAbsent(frame.stream().id(), id -> new Response());
                if (r.headers == null || r.headers.status() != null && r.headers.status().charAt(0) == '1') {
                    r.headers = frame.headers();
                }
                r.ended |= frame.isEndStream();
            } else if (msg instanceof Http2ResetFrame) {
                Http2ResetFrame frame = (Http2ResetFrame) msg;
                resets.put(frame.stream().id(), frame.errorCode());
            } else if (msg instanceof Http2DataFrame) {
                Http2DataFrame frame = (Http2DataFrame) msg;
                Response r = responses.computeIfAbsent(frame.stream().id(), id -> new Response());
                r.body.append(frame.content().toString(StandardCharsets.UTF_8));
                r.ended |= frame.isEndStream();
            }
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }
}
