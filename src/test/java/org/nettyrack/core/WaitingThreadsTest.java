package org.nettyrack.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class WaitingThreadsTest {
    @Test
    void growsOneStepAtATimeWhileRequestsQueueBehindBusyThreadsAndTheCpuHasRoom() {
        WaitingThreads threads = new WaitingThreads(4, 3);
        assertEquals(5, threads.next(4, 10, 0.40));
        assertEquals(6, threads.next(6, 10, 0.40));
        assertEquals(7, threads.next(7, 10, 0.40));
        assertEquals(7, threads.next(7, 10, 0.40), "max + extra is the ceiling");
    }

    @Test
    void staysAtTheMaximumForWorkThatKeepsTheCpuBusy() {
        WaitingThreads threads = new WaitingThreads(4, 8);
        for (int i = 0; i < 100; i++) {
            assertEquals(4, threads.next(4, 50, 0.97), "a queue with the cores busy is computing, not waiting");
        }
        assertEquals(4, threads.next(4, 50, WaitingThreads.GROW_BELOW), "the bound itself does not grow");
    }

    @Test
    void needsAQueueAndEveryAllowedThreadBusyToGrow() {
        WaitingThreads threads = new WaitingThreads(4, 8);
        assertEquals(4, threads.next(4, 0, 0.10), "nothing waits");
        assertEquals(4, threads.next(3, 5, 0.10), "a thread is free: the queue empties by itself");
    }

    @Test
    void shrinksWhenTheCpuIsBusyOrNothingQueuesForAWhile() {
        WaitingThreads threads = new WaitingThreads(2, 4);
        for (int i = 0; i < 4; i++) {
            threads.next(threads.limit(), 9, 0.2);
        }
        assertEquals(6, threads.limit());
        assertEquals(5, threads.next(6, 9, 0.99), "the extra threads now compete for the cores");
        assertEquals(5, threads.next(5, 9, 0.90), "between the bounds it holds");
        for (int i = 1; i < WaitingThreads.QUIET_STEPS; i++) {
            assertEquals(5, threads.next(1, 0, 0.1), "quiet step " + i);
        }
        assertEquals(4, threads.next(1, 0, 0.1), "quiet for long enough: one less");
        for (int i = 0; i < 10 * WaitingThreads.QUIET_STEPS; i++) {
            threads.next(0, 0, 0.99);
        }
        assertEquals(2, threads.limit(), "never below the maximum");
    }

    @Test
    void holdsWhereTheCpuIsUnknown() {
        WaitingThreads threads = new WaitingThreads(2, 4);
        assertEquals(2, threads.next(2, 9, -1));
    }

    @Test
    void withoutExtraThreadsNothingMoves() {
        WaitingThreads threads = new WaitingThreads(4, 0);
        assertFalse(threads.active());
        assertEquals(4, threads.next(4, 100, 0.0));
        assertTrue(new WaitingThreads(4, 1).active());
    }
}
