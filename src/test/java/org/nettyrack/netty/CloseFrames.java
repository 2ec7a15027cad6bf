package org.nettyrack.netty;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;

/** Reads what a push connection's close wrote onto an {@link EmbeddedChannel}. */
public final class CloseFrames {
    private CloseFrames() {
    }

    /** The status code of the close frame written next; closes are event-loop tasks, so run those. */
    public static int nextCode(EmbeddedChannel channel) {
        channel.runPendingTasks();
        CloseWebSocketFrame close = assertInstanceOf(CloseWebSocketFrame.class, channel.readOutbound());
        int code = close.statusCode();
        close.release();
        return code;
    }
}
