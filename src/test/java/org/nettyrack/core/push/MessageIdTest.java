package org.nettyrack.core.push;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class MessageIdTest {
    @Test
    void anIdReadsBackAsItWasWritten() {
        MessageId id = new MessageId("k3x9z1ab", 1_795_954_604_168L, 7);
        assertEquals("k3x9z1ab-1795954604168-7", id.toString());
        assertEquals(id, MessageId.parse(id.toString()));
    }

    @Test
    void idsOrderByTimeThenCount() {
        MessageId a = MessageId.parse("e-100-5");
        MessageId b = MessageId.parse("e-101-0");
        MessageId c = MessageId.parse("e-101-1");
        assertTrue(b.after(a));
        assertTrue(c.after(b));
        assertFalse(a.after(a));
        assertTrue(a.sameEpoch(c));
        assertFalse(a.sameEpoch(MessageId.parse("f-100-5")));
    }

    @Test
    void whatIsNotAnIdIsNull() {
        for (String text : new String[] {null, "", "7", "1-2", "e--1-2", "e-1-", "e-x-1", "e-1-y", "-1-2", "é-1-2",
                "e-1-2-3-4".repeat(20), "e-99999999999999999999-1", "ab cd-1-2", "e-+1-2"}) {
            assertNull(MessageId.parse(text), String.valueOf(text));
        }
    }

    @Test
    void anEpochIsOneToSixteenLettersOrDigits() {
        assertTrue(MessageId.isEpoch("a"));
        assertTrue(MessageId.isEpoch("0123456789abcdef"));
        assertFalse(MessageId.isEpoch("0123456789abcdefg"));
        assertThrows(IllegalArgumentException.class, () -> new MessageId("a-b", 1, 1));
        assertThrows(IllegalArgumentException.class, () -> new MessageId("ab", -1, 1));
    }
}
