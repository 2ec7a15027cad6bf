package org.nettyrack.netty.push;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.netty.handler.codec.CodecException;
import io.netty.handler.codec.CorruptedFrameException;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.compression.DecompressionException;
import io.netty.handler.codec.http.websocketx.CorruptedWebSocketFrameException;
import io.netty.handler.codec.http.websocketx.WebSocketCloseStatus;
import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.util.stream.Stream;
import java.util.zip.DataFormatException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.nettyrack.netty.push.PushFailure.Ending;

/** Which exception from an upgraded pipeline ends the connection how, with which close code. */
class PushFailureTest {
    static Stream<Arguments> failures() {
        return Stream.of(
            Arguments.of("frame decoder: protocol error",
                new CorruptedWebSocketFrameException(WebSocketCloseStatus.PROTOCOL_ERROR, "unmasked"),
                Ending.FAIL, 1002, false),
            Arguments.of("frame decoder: frame over the limit",
                new CorruptedWebSocketFrameException(WebSocketCloseStatus.MESSAGE_TOO_BIG, "Max frame length"),
                Ending.FAIL, 1009, false),
            Arguments.of("UTF-8 validator",
                new CorruptedWebSocketFrameException(WebSocketCloseStatus.INVALID_PAYLOAD_DATA, "bad UTF-8"),
                Ending.FAIL, 1007, false),
            Arguments.of("other corrupted frame", new CorruptedFrameException("?"), Ending.FAIL, 1002, false),
            Arguments.of("aggregator: fragments over the limit", new TooLongFrameException("content length exceeded"),
                Ending.CLOSE, 1009, false),
            Arguments.of("deflate: output over its cap",
                new DecompressionException("Decompression buffer has reached maximum size: 73728"),
                Ending.CLOSE, 1009, false),
            Arguments.of("deflate: invalid data",
                new DecompressionException("decompression failure", new DataFormatException("invalid block type")),
                Ending.FAIL, 1007, false),
            Arguments.of("deflate: compressed data without output",
                new DecoderException(new CodecException("cannot read uncompressed buffer")), Ending.FAIL, 1007, false),
            Arguments.of("connection reset", new IOException("Connection reset by peer"), Ending.GONE, 0, false),
            Arguments.of("closed channel", new ClosedChannelException(), Ending.GONE, 0, false),
            Arguments.of("a bug", new IllegalStateException("oops"), Ending.FAIL, 1011, true),
            Arguments.of("a bug in a decoder", new DecoderException(new NullPointerException()), Ending.FAIL, 1011, true),
            Arguments.of("an error", new OutOfMemoryError("Java heap space"), Ending.FAIL, 1011, true));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("failures")
    void decidesTheEnding(String name, Throwable cause, Ending ending, int code, boolean unexpected) {
        PushFailure failure = PushFailure.of(cause);
        assertEquals(ending, failure.ending());
        if (ending != Ending.GONE) {
            assertEquals(code, failure.code());
        }
        assertEquals(unexpected, failure.unexpected());
    }
}
