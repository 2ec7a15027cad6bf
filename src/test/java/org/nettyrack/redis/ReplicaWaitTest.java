package org.nettyrack.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ReplicaWaitTest {
    private final List<String> log = new CopyOnWriteArrayList<>();
    private final AtomicLong now = new AtomicLong();
    private final ReplicaWait wait = new ReplicaWait(new LinkStatus(RedisUrl.parse("redis://h"), log::add), 2_000, now::get);

    @Test
    void everyBatchWaitsWhileAReplicaAnswers() {
        assertTrue(wait.due());
        assertEquals(ReplicaWait.Next.DONE, wait.answered(1, 0));
        assertTrue(wait.due());
        assertEquals(List.of(), log);
    }

    @Test
    void withoutAReplicaTheWaitingPausesAndSaysSoOnceThenTriesAgain() {
        assertEquals(ReplicaWait.Next.DONE, wait.answered(0, 0));
        assertFalse(wait.due(), "no batch waits for a replica that is not there");
        assertEquals(1, log.size());
        assertTrue(log.get(0).contains("no replica acknowledged kept messages within 1000 ms"), log.get(0));
        now.addAndGet(TimeUnit.MILLISECONDS.toNanos(ReplicaWait.PAUSE_MILLIS));
        assertTrue(wait.due(), "tried again after the pause");
        wait.answered(0, 0);
        assertFalse(wait.due());
        assertEquals(1, log.size(), "said once");
        now.addAndGet(TimeUnit.MILLISECONDS.toNanos(ReplicaWait.PAUSE_MILLIS));
        wait.answered(1, 1);
        assertEquals("nettyrack: pubsub: a replica has the kept messages again", log.get(1));
    }

    @Test
    void aConnectedReplicaSlowToAcknowledgeIsAskedAgainForUpToThePauseThenTheWaitingPauses() {
        int asks = (int) (ReplicaWait.PAUSE_MILLIS / 1_000); // 1 s per WAIT with a 2 s command timeout
        for (int i = 1; i < asks; i++) {
            assertEquals(ReplicaWait.Next.ASK_AGAIN, wait.answered(0, 1), "ask " + i);
        }
        assertEquals(List.of(), log, "a slow replica is not news");
        assertEquals(ReplicaWait.Next.DONE, wait.answered(0, 1));
        assertFalse(wait.due());
        assertTrue(log.get(0).contains("within " + ReplicaWait.PAUSE_MILLIS + " ms"), log.get(0));
    }

    @Test
    void anAcknowledgementStartsTheCountOfAsksAgain() {
        wait.answered(0, 1);
        wait.answered(0, 1);
        wait.answered(1, 0);
        for (int i = 1; i < ReplicaWait.PAUSE_MILLIS / 1_000; i++) {
            assertEquals(ReplicaWait.Next.ASK_AGAIN, wait.answered(0, 1), "ask " + i);
        }
    }
}
