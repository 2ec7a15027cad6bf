package org.nettyrack.core.push;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The in-memory history and the resume rule, on an injected clock. */
class MemoryHistoryTest {
    private final AtomicLong now = new AtomicLong(1_000_000);
    private final List<PubSub.Message> delivered = new ArrayList<>();

    private MemoryHistory history(int messages, long ttlMillis, int channels) {
        return new MemoryHistory(new HistoryLimits(messages, ttlMillis, channels), now::get, "ep0ch");
    }

    private String keep(MemoryHistory history, String channel, String data) {
        history.keep(PubSub.Message.of(channel, data.getBytes(StandardCharsets.UTF_8)), delivered::add);
        return delivered.get(delivered.size() - 1).id().toString();
    }

    private static List<String> texts(Replay replay) {
        return replay.missed().stream().map(m -> new String(m.data(), StandardCharsets.UTF_8)).toList();
    }

    @Test
    void eachMessageIsDeliveredWithAnIdThatGrowsAcrossChannels() {
        MemoryHistory history = history(10, 60_000, 10);
        String a = keep(history, "a", "1");
        String b = keep(history, "b", "2");
        now.addAndGet(5);
        String c = keep(history, "a", "3");
        assertEquals(List.of("ep0ch-1000000-0", "ep0ch-1000000-1", "ep0ch-1000005-0"), List.of(a, b, c));
    }

    @Test
    void aClientGetsWhatItMissedInOrder() {
        MemoryHistory history = history(10, 60_000, 10);
        String seen = keep(history, "a", "1");
        keep(history, "b", "other channel");
        keep(history, "a", "2");
        keep(history, "a", "3");
        Replay replay = history.resume("a", seen);
        assertEquals(Replay.Outcome.RESUMED, replay.outcome());
        assertEquals(List.of("2", "3"), texts(replay));
        assertEquals(delivered.get(3).id().toString(), replay.head());
    }

    @Test
    void aClientThatMissedNothingResumesWithNothing() {
        MemoryHistory history = history(10, 60_000, 10);
        String last = keep(history, "a", "1");
        Replay replay = history.resume("a", last);
        assertEquals(Replay.Outcome.RESUMED, replay.outcome());
        assertEquals(List.of(), texts(replay));
    }

    @Test
    void aPositionOlderThanTheLastNMessagesIsReset() {
        MemoryHistory history = history(2, 60_000, 10);
        String first = keep(history, "a", "1");
        String second = keep(history, "a", "2");
        keep(history, "a", "3");
        keep(history, "a", "4");
        assertEquals(Replay.Outcome.RESET, history.resume("a", first).outcome(), "3 and 4 kept, 2 is gone");
        Replay fromSecond = history.resume("a", second);
        assertEquals(Replay.Outcome.RESUMED, fromSecond.outcome(), "2 dropped but the client saw it");
        assertEquals(List.of("3", "4"), texts(fromSecond));
    }

    @Test
    void messagesOlderThanTheTimeAreDroppedAndAQuietChannelForgotten() {
        MemoryHistory history = history(100, 1_000, 10);
        String first = keep(history, "a", "1");
        String second = keep(history, "a", "2");
        now.addAndGet(1_500);
        String third = keep(history, "a", "3");
        assertEquals(Replay.Outcome.RESET, history.resume("a", first).outcome(), "2 left with its time");
        assertEquals(List.of("3"), texts(history.resume("a", second)));

        now.addAndGet(1_500); // a is quiet past its time: forgotten
        assertEquals(0, history.channels());
        assertEquals(Replay.Outcome.RESET, history.resume("a", second).outcome(),
            "older than the time, on a channel no longer kept: what came after is not known");
        keep(history, "b", "x");
        assertEquals(Replay.Outcome.RESUMED, history.resume("a", delivered.get(3).id().toString()).outcome(),
            "a position within the time, on a channel not kept: the channel had no message since");
        assertEquals(Replay.Outcome.RESET, history.resume("never", third).outcome(),
            "a position older than the time, on a channel never kept: not known either");
    }

    @Test
    void beyondTheChannelLimitTheQuietestIsForgottenAndItsClientsReset() {
        MemoryHistory history = history(10, 60_000, 2);
        String onA = keep(history, "a", "1");
        keep(history, "a", "2");
        keep(history, "b", "3");
        now.addAndGet(1);
        keep(history, "c", "4"); // a, the quietest, goes
        assertEquals(2, history.channels());
        assertEquals(Replay.Outcome.RESET, history.resume("a", onA).outcome());
        String onC = delivered.get(3).id().toString();
        assertEquals(Replay.Outcome.RESUMED, history.resume("a", onC).outcome(), "after a's last message: nothing missed");
    }

    @Test
    void anIdNotOursIsReset() {
        MemoryHistory history = history(10, 60_000, 10);
        keep(history, "a", "1");
        String head = delivered.get(0).id().toString();
        for (String position : new String[] {"garbage", "other-1000000-0", "ep0ch-9999999-0", ""}) {
            Replay replay = history.resume("a", position);
            assertEquals(Replay.Outcome.RESET, replay.outcome(), position);
            assertEquals(head, replay.head(), "the reset says where to start again");
        }
    }

    @Test
    void anEmptyHistoryHasNoHead() {
        Replay replay = history(10, 60_000, 10).resume("a", "ep0ch-1-0");
        assertEquals(Replay.Outcome.RESET, replay.outcome());
        assertNull(replay.head());
    }

    @Test
    void theClockGoingBackStillGivesGrowingIds() {
        MemoryHistory history = history(10, 60_000, 10);
        String a = keep(history, "a", "1");
        now.addAndGet(-500);
        String b = keep(history, "a", "2");
        assertEquals(List.of("ep0ch-1000000-0", "ep0ch-1000000-1"), List.of(a, b));
    }
}
