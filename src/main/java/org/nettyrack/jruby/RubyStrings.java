package org.nettyrack.jruby;

import java.nio.charset.StandardCharsets;
import org.jcodings.specific.ASCIIEncoding;
import org.jruby.Ruby;
import org.jruby.RubyString;
import org.jruby.util.ByteList;

/** Java text to Ruby strings the way Rack wants them: bytes as received, ASCII-8BIT. */
final class RubyStrings {
    private RubyStrings() {
    }

    /** A frozen, deduplicated string for env keys and constant values, built once. */
    static RubyString frozen(Ruby runtime, String text) {
        return runtime.freezeAndDedupString(binary(runtime, text));
    }

    /** A new binary string holding the chars of {@code text} as bytes (ISO-8859-1). */
    static RubyString binary(Ruby runtime, CharSequence text) {
        int n = text.length();
        byte[] bytes = new byte[n];
        for (int i = 0; i < n; i++) {
            bytes[i] = (byte) text.charAt(i);
        }
        return binary(runtime, bytes);
    }

    /** A new binary string over {@code bytes} (not copied: the caller gives them up). */
    static RubyString binary(Ruby runtime, byte[] bytes) {
        return RubyString.newString(runtime, new ByteList(bytes, ASCIIEncoding.INSTANCE, false));
    }

    /** The bytes of a Ruby string as chars 0-255, which Netty writes back as the same bytes. */
    static String latin1(RubyString string) {
        ByteList bytes = string.getByteList();
        return new String(bytes.getUnsafeBytes(), bytes.getBegin(), bytes.getRealSize(), StandardCharsets.ISO_8859_1);
    }

    /** A binary string for part of {@code text}. */
    static RubyString binary(Ruby runtime, String text, int from, int to) {
        return binary(runtime, text.subSequence(from, to));
    }
}
