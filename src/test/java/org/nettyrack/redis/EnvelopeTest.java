package org.nettyrack.redis;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.nettyrack.core.push.PubSub.Message;

class EnvelopeTest {
    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.ISO_8859_1);
    }

    @Test
    void aKeptMessageArrivesWithItsIdAndItsDataAsSent() {
        Message message = Envelope.open("chat", bytes("\0nr:ab12-1700000000000-3\nhello\nworld"));
        assertEquals("ab12-1700000000000-3", message.id().toString());
        assertEquals("hello\nworld", new String(message.data(), StandardCharsets.UTF_8));
        assertEquals(true, message.text());
        byte[] binary = {(byte) 0xff, 0, '\n'};
        byte[] head = bytes("\0nr:ab12-1700000000000-4\n");
        byte[] wrapped = new byte[head.length + binary.length];
        System.arraycopy(head, 0, wrapped, 0, head.length);
        System.arraycopy(binary, 0, wrapped, head.length, binary.length);
        Message raw = Envelope.open("chat", wrapped);
        assertArrayEquals(binary, raw.data());
        assertEquals(false, raw.text());
    }

    @Test
    void anythingElseArrivesAsItIs() {
        for (String payload : new String[] {"", "hello", "\0nr:", "\0nr:no-id\nx", "\0nr:ab-1-2", "\0nx:ab-1-2\nx",
                "\0nr:" + "a".repeat(100) + "\n"}) {
            Message message = Envelope.open("chat", bytes(payload));
            assertNull(message.id(), payload);
            assertArrayEquals(bytes(payload), message.data());
        }
    }
}
