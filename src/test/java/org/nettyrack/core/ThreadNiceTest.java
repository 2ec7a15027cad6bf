package org.nettyrack.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The calling thread alone gets the nice value (Linux, where /proc/thread-self exists). */
class ThreadNiceTest {
    private final ByteArrayOutputStream logged = new ByteArrayOutputStream();

    @Test
    void setsTheNiceValueOfTheCallingThreadOnly() throws Exception {
        assumeTrue(Files.exists(Path.of("/proc/thread-self")), "Linux only");
        int before = niceOfCurrentThread();
        AtomicInteger inside = new AtomicInteger(-100);
        AtomicReference<Boolean> applied = new AtomicReference<>();
        Thread t = new Thread(() -> {
            applied.set(new ThreadNice(7, new ErrorLog(logged)).apply());
            inside.set(niceOfCurrentThread());
        });
        t.start();
        t.join(5_000);
        assertTrue(applied.get(), logged.toString());
        assertEquals(Math.max(7, before), inside.get(), "the thread's own nice value");
        assertEquals(before, niceOfCurrentThread(), "the caller of the test is untouched");
        assertEquals("", logged.toString());
    }

    @Test
    void zeroLeavesTheThreadAsItIs() throws Exception {
        assumeTrue(Files.exists(Path.of("/proc/thread-self")), "Linux only");
        int before = niceOfCurrentThread();
        assertTrue(new ThreadNice(0, new ErrorLog(logged)).apply());
        assertEquals(before, niceOfCurrentThread());
    }

    @Test
    void readsTheKernelsThreadId() throws Exception {
        assumeTrue(Files.exists(Path.of("/proc/thread-self")), "Linux only");
        int tid = ThreadNice.currentThreadId();
        assertTrue(Files.exists(Path.of("/proc/self/task/" + tid)), "a task of this process: " + tid);
    }

    /** Field 19 of /proc/thread-self/stat, counted after the command name's closing parenthesis. */
    private static int niceOfCurrentThread() {
        try {
            String stat = Files.readString(Path.of("/proc/thread-self/stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Integer.parseInt(fields[16]); // fields[0] is field 3 (state)
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
