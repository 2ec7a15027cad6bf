package org.nettyrack.netty.http2;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpServerUpgradeHandler;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http2.Http2FrameCodec;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2MultiplexHandler;
import io.netty.handler.codec.http2.Http2ServerUpgradeCodec;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.handler.flush.FlushConsolidationHandler;
import java.util.List;
import org.nettyrack.core.config.ServerConfig;
import org.nettyrack.netty.exchange.RequestStage;
import org.nettyrack.netty.http1.ExpectContinue;
import org.nettyrack.netty.http1.RequestGuard;
import org.nettyrack.netty.pipeline.PipelineNames;

/**
 * HTTP/2 for the Netty door, built from Netty's own handlers (the pipeline: docs/architecture.md):
 * a connection that speaks h2 (prior knowledge: {@link Http2Preface}; {@code Upgrade: h2c}:
 * {@link #upgradeHandler}; TLS with ALPN "h2": {@link #configure}) loses HTTP/1.1's handlers
 * and gets Netty's flush consolidation, {@link Http2FrameOrder}, frame codec and multiplexer,
 * and {@link Http2Streams}. Netty's frame codec enforces the protocol, flow control and the
 * flood limits, and {@link Http2FrameOrder} the stream-state rules it cannot see once a stream
 * is closed; the multiplexer gives each stream a child channel, whose {@link Http2StreamCodec}
 * turns the stream's frames into the same {@code HttpRequest}/{@code HttpContent} objects the
 * HTTP/1.1 decoder makes, and the responses back into frames. So each stream is one Rack
 * request through HTTP/1.1's guard and expect-continue and the same {@code RequestStage},
 * given {@link Http2Wire}. {@link Http2Streams} ends idle and draining connections.
 *
 * <p>A connection's streams answer from different worker threads, each response one write and
 * flush onto the connection's event loop. Netty's flush consolidation, on the socket side of
 * the frame codec, turns the flushes queued together into one: the responses of a batch of
 * streams leave in one {@code writev} (and, over TLS, fewer records) instead of one each.
 */
public final class Http2Support {

    private Http2Support() {
    }

    /**
     * Makes the connection speak HTTP/2 from its next byte on, which must be the client's
     * connection preface: the HTTP/1.1 handlers leave, the h2 ones are added last. For a
     * cleartext connection that opened with the preface, and for TLS once ALPN chose "h2".
     */
    public static void configure(ChannelPipeline p, RequestStage stage) {
        PipelineNames.leaveHttp1(p);
        Http2Streams streams = new Http2Streams(stage);
        p.addLast(PipelineNames.H2_FLUSH, flushConsolidation());
        p.addLast(PipelineNames.H2_ORDER, new Http2FrameOrder());
        p.addLast(PipelineNames.H2_CODEC, frameCodec(stage.server().config));
        p.addLast(PipelineNames.H2_MUX, new Http2MultiplexHandler(streams.initializer()));
        p.addLast(PipelineNames.H2_WINDOWS, Http2WindowsAfterSettings.INSTANCE);
        p.addLast(PipelineNames.H2_STREAMS, streams);
    }

    /**
     * Netty's upgrade handler, answering {@code Upgrade: h2c} with 101 and switching to HTTP/2;
     * the request becomes stream 1. A request with a body is served on HTTP/1.1 instead (the
     * upgrade is optional for the server), and other upgrades (WebSocket) pass untouched.
     */
    public static ChannelHandler upgradeHandler(RequestStage stage) {
        HttpServerUpgradeHandler.SourceCodec http1 = ctx -> {
            PipelineNames.leaveHttp1(ctx.pipeline());
            ctx.pipeline().addBefore(ctx.name(), PipelineNames.H2_FLUSH, flushConsolidation()); // the codec comes in at ctx's place
            ctx.pipeline().addBefore(ctx.name(), PipelineNames.H2_ORDER, Http2FrameOrder.afterUpgrade());
        };
        return new HttpServerUpgradeHandler(http1, protocol -> "h2c".contentEquals(protocol) ? upgradeCodec(stage) : null, 0) {
            @Override
            protected boolean shouldHandleUpgradeRequest(HttpRequest request) {
                return HttpUtil.getContentLength(request, 0L) == 0
                    && !request.headers().contains(HttpHeaderNames.TRANSFER_ENCODING)
                    && asksForH2c(request.headers().getAll(HttpHeaderNames.UPGRADE));
            }
        };
    }

    private static boolean asksForH2c(List<String> upgrades) {
        for (String field : upgrades) {
            for (String protocol : field.split(",")) {
                if (protocol.trim().equalsIgnoreCase("h2c")) {
                    return true;
                }
            }
        }
        return false;
    }

    private static HttpServerUpgradeHandler.UpgradeCodec upgradeCodec(RequestStage stage) {
        Http2Streams streams = new Http2Streams(stage);
        return new Http2ServerUpgradeCodec(frameCodec(stage.server().config), new Http2MultiplexHandler(streams.initializer()),
            Http2WindowsAfterSettings.INSTANCE, streams);
    }

    /**
     * Flushes asked for while the event loop has more tasks queued (other streams' responses)
     * wait for the last of them; flushes during a read wait for its end.
     */
    private static FlushConsolidationHandler flushConsolidation() {
        return new FlushConsolidationHandler(FlushConsolidationHandler.DEFAULT_EXPLICIT_FLUSH_AFTER_FLUSHES, true);
    }

    /** Netty's frame codec with the configured limits and its flood protections switched on. */
    static Http2FrameCodec frameCodec(ServerConfig config) {
        Http2Settings settings = Http2Settings.defaultSettings()
            .maxConcurrentStreams(config.http2Settings().maxConcurrentStreams())
            .initialWindowSize(config.http2Settings().initialWindow())
            .maxHeaderListSize(config.limits().maxHeaderSize())
            .connectProtocolEnabled(true); // RFC 8441: WebSockets and rack.protocol on a stream
        int resetWindowSeconds = (int) (config.http2Settings().resetWindowMillis() / 1000);
        return Http2FrameCodecBuilder.forServer()
            .initialSettings(settings)
            .validateHeaders(true)
            // A request without :method, :scheme or :path is malformed (RFC 9113 section
            // 8.3.1): a stream error, not a request for the app.
            .validateRequiredPseudoHeaders(true)
            .gracefulShutdownTimeoutMillis(config.timeouts().shutdownTimeoutMillis())
            .decoderEnforceMaxRstFramesPerWindow(config.http2Settings().maxResets(), resetWindowSeconds)
            .encoderEnforceMaxRstFramesPerWindow(config.http2Settings().maxResets(), resetWindowSeconds)
            .build();
    }

    /** One stream's pipeline: HTTP objects in and out, then the HTTP/1.1 path's own handlers. */
    static void streamPipeline(ChannelPipeline p, RequestStage stage, ExpectContinue expectContinue) {
        p.addLast(PipelineNames.H2_STREAM_CODEC, Http2StreamCodec.INSTANCE);
        p.addLast(PipelineNames.GUARD, new RequestGuard(stage.server().config.limits().maxHeaders()));
        p.addLast(PipelineNames.CONTINUE, expectContinue);
        stage.addTo(p, Http2Wire.INSTANCE);
    }
}
