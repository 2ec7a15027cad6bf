package org.nettyrack.core.push;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The queue limit (--max-push-queue) and the on_drained moment, as a transport counts its writes. */
class SendBacklogTest {
    @Test
    void countsWritesAndBytesUntilTheyAreWritten() {
        SendBacklog backlog = new SendBacklog(1024);
        assertTrue(backlog.admit(10, false));
        assertTrue(backlog.admit(20, false));
        assertEquals(2, backlog.writes());
        assertEquals(30, backlog.bytes());
        assertFalse(backlog.written(10));
        assertEquals(1, backlog.writes());
        assertEquals(20, backlog.bytes());
    }

    @Test
    void aWriteThatWouldPassTheLimitIsRefusedAndCountsNothing() {
        SendBacklog backlog = new SendBacklog(10);
        assertTrue(backlog.admit(6, false));
        assertFalse(backlog.admit(6, false), "12 bytes would pass the limit of 10");
        assertEquals(1, backlog.writes());
        assertEquals(6, backlog.bytes());
        assertTrue(backlog.admit(4, false), "exactly at the limit is allowed");
    }

    @Test
    void aMessageLargerThanTheLimitStillGoesOutAlone() {
        SendBacklog backlog = new SendBacklog(10);
        assertTrue(backlog.admit(50, false), "nothing waits: one big message passes");
        assertFalse(backlog.admit(1, false), "but nothing may queue behind it");
        backlog.written(50);
        assertTrue(backlog.admit(1, false));
    }

    @Test
    void refusalClosesWith1008NamingTheLimit() {
        PushClose close = new SendBacklog(2048).refusal();
        assertEquals(PushClose.POLICY, close.code());
        assertEquals("send queue over 2048 bytes: the client is not reading", close.reason());
    }

    @Test
    void drainedIsDueOnceABacklogThatFoundTheSocketFullEmpties() {
        SendBacklog backlog = new SendBacklog(1024);
        assertTrue(backlog.admit(5, false));
        assertTrue(backlog.admit(5, true), "this one found the socket full");
        assertFalse(backlog.written(5), "not empty yet");
        assertTrue(backlog.written(5), "empty: on_drained");
        assertTrue(backlog.admit(5, false));
        assertFalse(backlog.written(5), "no backlog this time: no on_drained");
    }

    @Test
    void drainedIsReportedOnceAcrossThreads() throws InterruptedException {
        SendBacklog backlog = new SendBacklog(1 << 30);
        int threads = 4;
        int writes = 10_000;
        for (int i = 0; i < threads * writes; i++) {
            assertTrue(backlog.admit(3, i == 0));
        }
        AtomicInteger drained = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(threads);
        for (int t = 0; t < threads; t++) {
            new Thread(() -> {
                for (int i = 0; i < writes; i++) {
                    if (backlog.written(3)) {
                        drained.incrementAndGet();
                    }
                }
                done.countDown();
            }).start();
        }
        assertTrue(done.await(10, TimeUnit.SECONDS), "the writing threads finished");
        assertEquals(1, drained.get());
        assertEquals(0, backlog.writes());
        assertEquals(0, backlog.bytes());
    }
}
