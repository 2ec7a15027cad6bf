package org.nettyrack.redis;

import java.nio.charset.StandardCharsets;
import org.nettyrack.core.push.MessageId;
import org.nettyrack.core.push.PubSub.Message;

/**
 * How a kept message travels through Redis pub/sub with its id ({@link RedisHistory}'s
 * script wraps it): {@code NUL "nr:" ID LF DATA}. A message that does not begin so (one
 * published without history, or by another program) arrives as it is, without an id.
 */
final class Envelope {
    private static final byte[] START = "\0nr:".getBytes(StandardCharsets.US_ASCII);
    private static final int LONGEST_ID = 64;

    private Envelope() {
    }

    static Message open(String channel, byte[] payload) {
        if (!startsWithMark(payload)) {
            return Message.of(channel, payload);
        }
        int end = START.length;
        int limit = Math.min(payload.length, START.length + LONGEST_ID);
        while (end < limit && payload[end] != '\n') {
            end++;
        }
        MessageId id = end < limit
            ? MessageId.parse(new String(payload, START.length, end - START.length, StandardCharsets.US_ASCII))
            : null;
        if (id == null) {
            return Message.of(channel, payload);
        }
        byte[] data = new byte[payload.length - end - 1];
        System.arraycopy(payload, end + 1, data, 0, data.length);
        return Message.of(channel, data).withId(id);
    }

    private static boolean startsWithMark(byte[] payload) {
        if (payload.length < START.length) {
            return false;
        }
        for (int i = 0; i < START.length; i++) {
            if (payload[i] != START[i]) {
                return false;
            }
        }
        return true;
    }
}
