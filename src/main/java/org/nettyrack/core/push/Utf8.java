package org.nettyrack.core.push;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/** Whether bytes are well-formed UTF-8: such messages go out as WebSocket text frames. */
final class Utf8 {
    private Utf8() {
    }

    static boolean isValid(byte[] data) {
        int i = 0;
        while (i < data.length && data[i] >= 0) {
            i++; // ASCII fast path: most messages end here
        }
        if (i == data.length) {
            return true;
        }
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
        try {
            decoder.decode(ByteBuffer.wrap(data, i, data.length - i));
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }
}
