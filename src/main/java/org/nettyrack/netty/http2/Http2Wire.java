package org.nettyrack.netty.http2;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http2.DefaultHttp2ResetFrame;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Stream;
import io.netty.handler.codec.http2.Http2StreamChannel;
import org.nettyrack.netty.pipeline.PipelineNames;
import org.nettyrack.netty.pipeline.Wire;

/** One HTTP/2 stream, a child channel of its connection: the {@link Wire} {@link Http2Support} gives each stream's handlers. */
public final class Http2Wire implements Wire {
    public static final Wire INSTANCE = new Http2Wire();

    private Http2Wire() {
    }

    @Override
    public String protocol() {
        return "HTTP/2";
    }

    @Override
    public boolean isStream() {
        return true;
    }

    @Override
    public Channel connection(Channel channel) {
        return channel.parent();
    }

    @Override
    public String connectProtocol(Channel channel) {
        return channel.attr(Http2Request.CONNECT_PROTOCOL).get();
    }

    /**
     * A protocol error on this stream (a frame in the wrong state, a content-length the DATA
     * does not match): the stream channel's own end resets it with the error's code (RFC 9113
     * section 5.4.2); a plain close would reset it with CANCEL.
     */
    @Override
    public boolean isProtocolError(Throwable cause) {
        return Http2CodecUtil.getEmbeddedHttp2Exception(cause) != null;
    }

    /**
     * A stream whose request is still arriving is first reset with NO_ERROR: "the server MAY
     * request that the client abort transmission of a request without error by sending a
     * RST_STREAM with an error code of NO_ERROR after sending a complete response" (RFC 9113
     * 8.1); closing alone resets it with CANCEL, and clients (curl, httpx) then drop the answer
     * they were given.
     */
    @Override
    public void closeAfterAnswer(ChannelFuture written) {
        written.addListener(f -> {
            Http2StreamChannel stream = (Http2StreamChannel) written.channel();
            if (f.isSuccess() && stream.stream().state() == Http2Stream.State.HALF_CLOSED_LOCAL) {
                stream.writeAndFlush(new DefaultHttp2ResetFrame(Http2Error.NO_ERROR));
            }
            stream.close();
        });
    }

    /** The stream's codec gives way to {@link Http2StreamBytes}, after an extended CONNECT was answered. */
    @Override
    public void carryBytes(ChannelPipeline p) {
        if (p.get(PipelineNames.H2_STREAM_CODEC) != null) {
            p.replace(PipelineNames.H2_STREAM_CODEC, PipelineNames.H2_BYTES, new Http2StreamBytes());
        }
    }
}
