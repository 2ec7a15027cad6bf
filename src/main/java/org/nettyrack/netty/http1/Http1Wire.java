package org.nettyrack.netty.http1;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelPipeline;
import org.nettyrack.netty.pipeline.Wire;

/** HTTP/1.x on the connection's own channel: the {@link Wire} {@code HttpPipeline} gives its handlers. */
public final class Http1Wire implements Wire {
    public static final Wire INSTANCE = new Http1Wire();

    private Http1Wire() {
    }

    @Override
    public String protocol() {
        return null;
    }

    @Override
    public boolean isStream() {
        return false;
    }

    @Override
    public Channel connection(Channel channel) {
        return channel;
    }

    @Override
    public String connectProtocol(Channel channel) {
        return null;
    }

    @Override
    public boolean isProtocolError(Throwable cause) {
        return false;
    }

    @Override
    public void closeAfterAnswer(ChannelFuture written) {
        written.addListener(ChannelFutureListener.CLOSE);
    }

    @Override
    public void carryBytes(ChannelPipeline p) {
    }
}
