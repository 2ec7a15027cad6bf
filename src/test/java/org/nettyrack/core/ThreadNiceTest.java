package org.nettyrack.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The calling thread's id goes to the system call with the value; a failed call is said once;
 * no call or 0 sets nothing. The real call (JRuby's POSIX) is PosixPriorityTest's.
 */
class ThreadNiceTest {
    private final ByteArrayOutputStream logged = new ByteArrayOutputStream();

    @Test
    void passesTheCallingThreadsIdAndTheValue() throws Exception {
        assumeTrue(Files.exists(Path.of("/proc/thread-self")), "Linux only");
        List<int[]> calls = new CopyOnWriteArrayList<>();
        AtomicInteger tid = new AtomicInteger();
        AtomicReference<Boolean> applied = new AtomicReference<>();
        Thread t = new Thread(() -> {
            try {
                tid.set(ThreadNice.currentThreadId());
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            applied.set(new ThreadNice(7, (id, nice) -> {
                calls.add(new int[] {id, nice});
                return 0;
            }, new ErrorLog(logged)).apply());
        });
        t.start();
        t.join(5_000);
        assertTrue(applied.get());
        assertEquals(1, calls.size());
        assertArrayEquals(new int[] {tid.get(), 7}, calls.get(0));
        assertEquals("", logged.toString());
    }

    @Test
    void saysOnceWhenTheCallFails() {
        assumeTrue(Files.exists(Path.of("/proc/thread-self")), "Linux only");
        ThreadNice nice = new ThreadNice(5, (id, value) -> 13, new ErrorLog(logged));
        assertFalse(nice.apply());
        assertFalse(nice.apply());
        assertEquals("nettyrack: worker threads keep their priority (worker nice 5 not applied: setpriority failed (errno 13))\n",
            logged.toString());
    }

    @Test
    void zeroOrNoCallSetsNothing() {
        ThreadNice.SetPriority refuse = (id, value) -> {
            throw new AssertionError("not called");
        };
        assertTrue(new ThreadNice(0, refuse, new ErrorLog(logged)).apply());
        assertTrue(new ThreadNice(10, null, new ErrorLog(logged)).apply());
        assertEquals("", logged.toString());
    }

    @Test
    void readsTheKernelsThreadId() throws Exception {
        assumeTrue(Files.exists(Path.of("/proc/thread-self")), "Linux only");
        int tid = ThreadNice.currentThreadId();
        assertTrue(Files.exists(Path.of("/proc/self/task/" + tid)), "a task of this process: " + tid);
    }
}
