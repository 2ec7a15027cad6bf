package org.nettyrack.netty.pipeline;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelPipeline;

/**
 * What the handlers both protocols share must know of the protocol their channel speaks,
 * chosen once, when the pipeline is built: HTTP/1.x on the connection's own channel
 * ({@code Http1Wire}, given by {@code HttpPipeline}), or one HTTP/2 stream, a child channel of
 * its connection ({@code Http2Wire}, given by {@code Http2Support} to each stream's handlers).
 * The body collector, dispatcher, response sink, push upgrade, hijack, file bodies and error
 * answers ask this instead of the class of their channel.
 */
public interface Wire {
    /** What requests say they came by ({@code HTTP/2}), or null for their request line's version. */
    String protocol();

    /**
     * Whether the channel is one stream of a multiplexed connection: it has no request
     * timeouts of its own (its connection's idle is the streams handler's), and its responses
     * become frames in its codec.
     */
    boolean isStream();

    /** The channel that owns the socket: the channel itself, or a stream's connection. */
    Channel connection(Channel channel);

    /** RFC 8441's {@code :protocol} of an extended CONNECT that came on the channel; null for any other request. */
    String connectProtocol(Channel channel);

    /**
     * Whether {@code cause} is an error of this channel's protocol that its own end answers
     * (an HTTP/2 stream error: a reset with the error's code), rather than a reason to close.
     */
    boolean isProtocolError(Throwable cause);

    /** Closes the channel once {@code written}, an answer after which the server reads no more, has left. */
    void closeAfterAnswer(ChannelFuture written);

    /**
     * Makes what is left of the pipeline carry bytes, once the HTTP handlers have left for a
     * push conversation or a hijack: nothing to do on a connection's own channel, whose socket
     * is bytes; a stream's codec gives way to one that turns DATA frames into bytes and back.
     */
    void carryBytes(ChannelPipeline p);
}
