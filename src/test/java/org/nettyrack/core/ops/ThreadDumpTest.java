package org.nettyrack.core.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.nettyrack.core.Workers;

/**
 * Every JVM thread with its Java stack, Ruby backtraces joined by thread id, read on a worker;
 * when no worker comes in time, the Java part alone and the reason.
 */
class ThreadDumpTest {
    private final List<Runnable> queued = new ArrayList<>();
    private final Workers manual = queued::add;

    @SuppressWarnings("deprecation") // Thread.getId: the JVM ids ThreadMXBean reports
    private static long id(Thread t) {
        return t.getId();
    }

    @Test
    void listsJvmThreadsAndAddsTheRubyBacktracesTheWorkerRead() throws Exception {
        CountDownLatch parked = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Thread sleeper = new Thread(() -> {
            parked.countDown();
            await(release);
        }, "dump-me \"quoted\"");
        sleeper.start();
        try {
            assertTrue(parked.await(5, TimeUnit.SECONDS));
            waitUntilTimedWaiting(sleeper); // counted down is not yet parked: the dump would see RUNNABLE
            AtomicReference<Thread> readOn = new AtomicReference<>();
            var dump = ThreadDump.collect(manual, () -> {
                readOn.set(Thread.currentThread());
                return Map.of(id(sleeper), List.of("app.rb:3:in 'wait'", "app.rb:1:in '<main>'"));
            }, 60_000);
            assertFalse(dump.isDone(), "waits for a worker");
            queued.remove(0).run();
            String json = dump.get(5, TimeUnit.SECONDS);
            assertEquals(Thread.currentThread(), readOn.get(), "read by the task the workers ran");
            assertTrue(json.startsWith("{\"ruby_backtraces\":\"included\",\"threads\":[{\"id\":"), json);
            assertTrue(json.contains("\"name\":\"dump-me \\\"quoted\\\"\",\"state\":\"TIMED_WAITING\",\"daemon\":false,\"lock\":\""), json);
            assertTrue(json.contains("\"ruby\":[\"app.rb:3:in 'wait'\",\"app.rb:1:in '<main>'\"]"), json);
            assertTrue(json.contains("\"name\":\"" + Thread.currentThread().getName() + "\""), json);
            assertTrue(json.contains("ThreadDumpTest.listsJvmThreadsAndAddsTheRubyBacktracesTheWorkerRead(ThreadDumpTest.java:"), json);
        } finally {
            release.countDown();
            sleeper.join(5_000);
        }
    }

    @Test
    void answersWithJavaStacksAloneWhenNoWorkerComesInTime() throws Exception {
        String json = ThreadDump.collect(manual, Map::of, 50).get(5, TimeUnit.SECONDS);
        assertTrue(json.startsWith("{\"ruby_backtraces\":\"unavailable: no worker thread was free within 50 ms\""), json);
        assertFalse(json.contains("\"ruby\":"), json);
        assertTrue(json.contains("\"java\":[\""), json);
        queued.remove(0).run(); // the late task finds the dump given up on, and does nothing
    }

    @Test
    void saysSoWhenTheWorkersHaveStopped() throws Exception {
        Workers stopped = new Workers() {
            @Override
            public boolean submit(Runnable task) {
                return false;
            }

            @Override
            public void execute(Runnable task) {
                throw new RejectedExecutionException("stopped");
            }
        };
        String json = ThreadDump.collect(stopped, Map::of, 60_000).get(5, TimeUnit.SECONDS);
        assertTrue(json.startsWith("{\"ruby_backtraces\":\"unavailable: the worker threads have stopped\""), json);
    }

    @Test
    void reportsAFailureToReadRubyBacktraces() throws Exception {
        var dump = ThreadDump.collect(manual, () -> {
            throw new IllegalStateException("runtime torn down");
        }, 60_000);
        queued.remove(0).run();
        String json = dump.get(5, TimeUnit.SECONDS);
        assertTrue(json.startsWith("{\"ruby_backtraces\":\"unavailable: java.lang.IllegalStateException: runtime torn down\""), json);
    }

    private static void waitUntilTimedWaiting(Thread t) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (t.getState() != Thread.State.TIMED_WAITING) {
            assertTrue(System.nanoTime() < deadline, "the sleeper never parked: " + t.getState());
            Thread.sleep(1);
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
