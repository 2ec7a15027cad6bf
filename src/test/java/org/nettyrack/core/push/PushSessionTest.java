package org.nettyrack.core.push;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.nettyrack.core.ErrorLog;
import org.nettyrack.core.PushConnection;
import org.nettyrack.core.PushEndpoint;
import org.nettyrack.core.Upgrade;
import org.nettyrack.core.WorkerPool;
import org.nettyrack.core.Workers;

/** Callbacks of one connection: on workers, one at a time, in order, on_close once and last. */
class PushSessionTest {
    private final FakePushConnection connection = new FakePushConnection(Upgrade.WEBSOCKET);
    private final RecordingEndpoint endpoint = new RecordingEndpoint();
    private final ManualWorkers manual = new ManualWorkers();
    private final ByteArrayOutputStream errors = new ByteArrayOutputStream();
    private final ErrorLog errorLog = new ErrorLog(errors);
    private WorkerPool pool;

    @AfterEach
    void stopPool() throws InterruptedException {
        if (pool != null) {
            assertTrue(pool.shutdown(5_000));
        }
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** Waits until no session task is queued or running: everything enqueued so far has been handled. */
    private static void awaitIdle(WorkerPool pool) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (pool.pending() > 0) {
            assertTrue(System.nanoTime() < deadline, "the session's tasks did not finish within 5 s");
            Thread.sleep(1);
        }
    }

    /** One session of a shared pool: watches for overlapping callbacks and records message order. */
    private static final class Serial implements PushEndpoint {
        final AtomicInteger inside = new AtomicInteger();
        final AtomicInteger overlaps = new AtomicInteger();
        final List<Integer> seen = Collections.synchronizedList(new ArrayList<>());
        final Set<String> threads = ConcurrentHashMap.newKeySet();
        final CountDownLatch closed = new CountDownLatch(1);

        private void enter() {
            if (inside.incrementAndGet() != 1) {
                overlaps.incrementAndGet();
            }
            threads.add(Thread.currentThread().getName());
            Thread.yield(); // widen the window another callback of this connection would need
        }

        private void leave() {
            inside.decrementAndGet();
        }

        @Override
        public void onOpen(PushConnection c) {
            enter();
            leave();
        }

        @Override
        public void onMessage(PushConnection c, byte[] data, boolean text) {
            enter();
            seen.add(Integer.parseInt(new String(data, StandardCharsets.US_ASCII)));
            leave();
        }

        @Override
        public void onDrained(PushConnection c) {
            enter();
            leave();
        }

        @Override
        public void onShutdown(PushConnection c) {
            enter();
            leave();
        }

        @Override
        public void onClose(PushConnection c) {
            enter();
            leave();
            closed.countDown();
        }
    }

    /** Runs every task on a thread of its own, and knows when none is queued or running. */
    private static final class ThreadPerTask implements Workers {
        private final AtomicInteger inFlight = new AtomicInteger();

        @Override
        public boolean submit(Runnable task) {
            inFlight.incrementAndGet(); // before the task's own follow-up is submitted, so never 0 in between
            new Thread(() -> {
                try {
                    task.run();
                } finally {
                    inFlight.decrementAndGet();
                }
            }).start();
            return true;
        }

        /** Waits until the session has no task queued or running. */
        void awaitIdle() {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (inFlight.get() > 0) {
                assertTrue(System.nanoTime() < deadline, "the session's tasks did not finish within 5 s");
                LockSupport.parkNanos(50_000);
            }
        }
    }

    @Test
    void runsEachConnectionsCallbacksInOrderAndNeverTwoAtOnce() throws Exception {
        // Every task gets a thread of its own, and each producer lets its session go idle every
        // 100 messages, so a session's callbacks surely run on many threads; only the session's
        // own serialising can keep them in order and apart.
        int sessions = 8;
        int messages = 1_000;
        List<Serial> endpoints = new ArrayList<>();
        List<Thread> producers = new ArrayList<>();
        List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
        for (int s = 0; s < sessions; s++) {
            Serial e = new Serial();
            endpoints.add(e);
            ThreadPerTask workers = new ThreadPerTask();
            PushSession session = new PushSession(workers, e, connection, () -> { }, errorLog);
            Thread producer = new Thread(() -> {
                session.opened();
                for (int i = 0; i < messages; i++) {
                    session.message(utf8(Integer.toString(i)), true);
                    if (i % 100 == 99) {
                        session.drained();
                        workers.awaitIdle(); // the next message must start a new task, on a new thread
                    }
                }
                session.closed();
            });
            producer.setUncaughtExceptionHandler((t, failure) -> failures.add(failure));
            producers.add(producer);
        }
        producers.forEach(Thread::start);
        for (Thread t : producers) {
            t.join(10_000);
        }
        assertEquals(List.of(), failures);
        for (Serial e : endpoints) {
            assertTrue(e.closed.await(5, TimeUnit.SECONDS), "on_close ran");
            assertEquals(0, e.overlaps.get(), "two callbacks of one connection overlapped");
            assertEquals(messages, e.seen.size());
            for (int i = 0; i < messages; i++) {
                assertEquals(i, e.seen.get(i), "message order");
            }
            assertTrue(e.threads.size() > messages / 100, "callbacks ran on " + e.threads.size() + " threads");
        }
    }

    @Test
    void onCloseRunsOnceAndLastWhenClosedRacesWithEvents() throws Exception {
        pool = new WorkerPool(4, 4, 16);
        PushSession session = new PushSession(pool, endpoint, connection, () -> { }, errorLog);
        session.opened();
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            int id = t;
            threads.add(new Thread(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int i = 0; i < 300; i++) {
                    session.message(utf8(id + "-" + i), true);
                    if (i == 150) {
                        session.closed();
                    }
                }
                session.closed();
                session.drained();
                session.shutdown();
            }));
        }
        threads.forEach(Thread::start);
        go.countDown();
        for (Thread t : threads) {
            t.join(5_000);
        }
        session.closed();
        session.message(utf8("late"), true);
        awaitIdle(pool);

        assertEquals(1, endpoint.count("close"), endpoint.events.toString());
        assertEquals("close", endpoint.events.get(endpoint.events.size() - 1), "nothing after on_close");
        assertEquals("open", endpoint.events.get(0));
        assertTrue(session.isClosing());
    }

    @Test
    void eventsAfterOnCloseNeverReachTheEndpoint() {
        PushSession session = new PushSession(manual, endpoint, connection, () -> { }, errorLog);
        session.opened();
        session.closed();
        session.message(utf8("queued after close"), true);
        session.drained();
        session.closed();
        manual.runAll();
        session.shutdown();
        session.run(() -> endpoint.events.add("task"));
        session.closed();
        manual.runAll();
        assertEquals(List.of("open", "close"), endpoint.events);
    }

    @Test
    void keepsArrivalOrderAcrossEventKindsAndScheduledTasks() {
        PushSession session = new PushSession(manual, endpoint, connection, () -> { }, errorLog);
        session.opened();
        session.message(utf8("a"), true);
        session.run(() -> endpoint.events.add("task"));
        session.message(utf8("b"), false);
        session.drained();
        session.shutdown();
        session.closed();
        manual.runAll();
        assertEquals(List.of("open", "text:a", "task", "binary:b", "drained", "shutdown", "close"), endpoint.events);
    }

    @Test
    void closesAfterOnShutdownWhenTheServerGoes() {
        PushSession session = new PushSession(manual, endpoint, connection, () -> { }, errorLog);
        session.opened();
        session.shutdown(() -> endpoint.events.add("close 1001"));
        session.message(utf8("late"), true);
        manual.runAll();
        assertEquals(List.of("open", "shutdown", "close 1001", "text:late"), endpoint.events);
    }

    @Test
    void holdsAtMostOneTaskInThePoolAndHandsTheWorkerBack() {
        PushSession session = new PushSession(manual, endpoint, connection, () -> { }, errorLog);
        for (int i = 0; i < 40; i++) {
            session.message(utf8("m"), true);
        }
        assertEquals(1, manual.queued(), "one pool task per connection, however many events");
        manual.runOne();
        int handled = endpoint.events.size();
        assertTrue(handled > 0 && handled < 40, "a batch, not everything: " + handled);
        assertEquals(1, manual.queued(), "the rest went back to the pool as one task");
        manual.runAll();
        assertEquals(40, endpoint.events.size());
        assertTrue(endpoint.events.stream().allMatch("text:m"::equals));
    }

    @Test
    void asksTheTransportToPauseAtTheHighWaterMarkAndResumesOnceTheBacklogDrains() {
        AtomicInteger resumes = new AtomicInteger();
        List<Integer> handledAtResume = new ArrayList<>();
        List<Boolean> resumedOnWorker = new ArrayList<>();
        PushSession session = new PushSession(manual, endpoint, connection, () -> {
            resumes.incrementAndGet();
            handledAtResume.add(endpoint.events.size());
            resumedOnWorker.add(manual.running());
        }, errorLog);
        for (int i = 1; i < PushSession.HIGH_WATER; i++) {
            assertTrue(session.message(utf8("m" + i), true), "below the mark: keep reading (" + i + ")");
        }
        assertFalse(session.message(utf8("m" + PushSession.HIGH_WATER), true), "at the mark: pause");
        assertFalse(session.message(utf8("one more in flight"), true), "still over the mark");
        assertEquals(0, resumes.get(), "nothing handled yet");

        manual.runAll();
        assertEquals(1, resumes.get(), "resume runs once");
        assertEquals(List.of(PushSession.HIGH_WATER + 1 - PushSession.LOW_WATER), handledAtResume,
            "resume runs when the backlog is down to the low-water mark");
        assertEquals(List.of(true), resumedOnWorker, "resume runs on a worker");
        assertEquals(PushSession.HIGH_WATER + 1, endpoint.events.size());

        assertTrue(session.message(utf8("after"), true), "the backlog is gone: reading again");
        manual.runAll();
        assertEquals(1, resumes.get(), "no resume without a pause");
    }

    @Test
    void resumesEvenWhenTheHandlerThrows() {
        AtomicInteger resumes = new AtomicInteger();
        PushSession session = new PushSession(manual, endpoint, connection, resumes::incrementAndGet, errorLog);
        endpoint.hook = event -> {
            throw new IllegalStateException("handler failed on " + event + " (expected by the test)");
        };
        for (int i = 0; i < PushSession.HIGH_WATER; i++) {
            session.message(utf8("m"), true);
        }
        manual.runAll();
        assertEquals(1, resumes.get());
    }

    @Test
    void anEndpointThatThrowsDoesNotStopLaterEvents() {
        PushSession session = new PushSession(manual, endpoint, connection, () -> { }, errorLog);
        endpoint.hook = event -> {
            if (event.equals("open") || event.equals("text:boom")) {
                throw new IllegalStateException("handler failed (expected by the test)");
            }
        };
        session.opened();
        session.message(utf8("boom"), true);
        session.message(utf8("after"), true);
        session.drained();
        session.closed();
        manual.runAll();
        assertEquals(List.of("open", "text:boom", "text:after", "drained", "close"), endpoint.events);
        String log = errors.toString(StandardCharsets.UTF_8);
        assertEquals(2, log.split("nettyrack: push callback failed: java.lang.IllegalStateException: handler failed",
            -1).length - 1, "each failure reported to the server's error log: " + log);
    }
}
