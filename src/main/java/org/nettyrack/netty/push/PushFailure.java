package org.nettyrack.netty.push;

import io.netty.handler.codec.CodecException;
import io.netty.handler.codec.CorruptedFrameException;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.compression.DecompressionException;
import io.netty.handler.codec.http.websocketx.CorruptedWebSocketFrameException;
import java.io.IOException;
import java.util.zip.DataFormatException;
import org.nettyrack.core.push.PushClose;

/**
 * How an upgraded connection ends when a handler in its pipeline throws: the one place that
 * turns Netty's exceptions into close codes (the codes and the closings both doors share are
 * the core's {@link PushClose}); {@link PushHandler} acts on the answer.
 * <pre>
 * thrown by            exception                                     ending
 * frame decoder        CorruptedWebSocketFrameException (it drops    FAIL with its code: 1002, or 1009
 *                      all that follows: the peer's close too)       for a frame over the frame limit
 * UTF-8 validator      CorruptedWebSocketFrameException              FAIL 1007
 * aggregator           TooLongFrameException (fragments joined)      CLOSE 1009
 * deflate decoder      DecompressionException, invalid data          FAIL 1007
 *                      DecompressionException, output over its cap   CLOSE 1009
 *                      CodecException: compressed data, no output    FAIL 1007
 * the socket           IOException (reset, broken pipe)              GONE
 * anything else        a server bug                                  FAIL 1011, logged
 * </pre>
 * 1007 for compressed data that does not inflate: RFC 7692 only says to fail the connection;
 * the data is not what the message claims to be (RFC 6455 7.4.1), and Node's {@code ws} says 1007 too.
 */
record PushFailure(Ending ending, PushClose close) {
    /** What is left to do with the connection. */
    enum Ending {
        /** A close frame, then the closing handshake: what the client sends next can still be read. */
        CLOSE,
        /** A close frame, then our half of the TCP connection ends (RFC 6455 7.1.7). */
        FAIL,
        /** The socket is gone: nothing can be sent. */
        GONE
    }

    static final PushFailure TOO_BIG = new PushFailure(Ending.CLOSE, PushClose.MESSAGE_TOO_BIG);
    private static final PushFailure GONE = new PushFailure(Ending.GONE, null);
    private static final PushFailure INVALID_COMPRESSED = new PushFailure(Ending.FAIL,
        new PushClose(PushClose.INVALID_DATA, "invalid compressed data"));
    private static final PushFailure INTERNAL = new PushFailure(Ending.FAIL, PushClose.INTERNAL);

    static PushFailure of(Throwable cause) {
        if (cause instanceof CorruptedWebSocketFrameException corrupted) {
            int code = corrupted.closeStatus().code();
            return new PushFailure(Ending.FAIL,
                code == PushClose.TOO_BIG ? PushClose.MESSAGE_TOO_BIG : new PushClose(code, reason(corrupted)));
        }
        if (cause instanceof CorruptedFrameException) {
            return new PushFailure(Ending.FAIL, new PushClose(PushClose.PROTOCOL_ERROR, reason(cause)));
        }
        if (cause instanceof TooLongFrameException) {
            return TOO_BIG;
        }
        if (cause instanceof DecompressionException) {
            // Raw deflate leaves ZlibDecoder one other failure: its output reached maxAllocation.
            return cause.getCause() instanceof DataFormatException ? INVALID_COMPRESSED : TOO_BIG;
        }
        if (cause instanceof DecoderException && cause.getCause() != null
            && cause.getCause().getClass() == CodecException.class) {
            return INVALID_COMPRESSED; // only the deflate decoder throws a plain CodecException inbound
        }
        if (cause instanceof IOException) {
            return GONE;
        }
        return INTERNAL;
    }

    /** The close code; 0 for {@link Ending#GONE}. */
    int code() {
        return close == null ? 0 : close.code();
    }

    /** A server fault rather than the client's: worth a line in the error log. */
    boolean unexpected() {
        return code() == PushClose.INTERNAL_ERROR;
    }

    /** A close reason must fit a control frame: 123 bytes of UTF-8. */
    private static String reason(Throwable cause) {
        String message = cause.getMessage() == null ? "" : cause.getMessage();
        return message.length() <= 120 && message.chars().allMatch(c -> c < 0x80) ? message : "protocol error";
    }
}
