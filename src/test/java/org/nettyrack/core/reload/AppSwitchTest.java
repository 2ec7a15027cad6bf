package org.nettyrack.core.reload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.nettyrack.core.FakeRequest;
import org.nettyrack.core.PushEndpoint;
import org.nettyrack.core.RackHandler;
import org.nettyrack.core.ResponseHeaders;
import org.nettyrack.core.ResponseSink;

class AppSwitchTest {
    private final AtomicLong now = new AtomicLong(1_000);
    /** What picks a request's version: below the share, the new one. */
    private double draw;
    private final java.util.Random random = new java.util.Random(42);

    private AppSwitch switchOver(RackHandler first) {
        return new AppSwitch(first, now::get, () -> Double.isNaN(draw) ? random.nextDouble() : draw);
    }

    /** Answers every request with its status and counts them. */
    static final class Version implements RackHandler {
        final int status;
        final AtomicInteger served = new AtomicInteger();

        Version(int status) {
            this.status = status;
        }

        @Override
        public void handle(org.nettyrack.core.RackRequest request, ResponseSink sink) {
            served.incrementAndGet();
            sink.respond(status, new ResponseHeaders(), new byte[0], 0, 0);
        }
    }

    private static int serve(AppSwitch app, int count) {
        int lastStatus = 0;
        for (int i = 0; i < count; i++) {
            StatusSink sink = new StatusSink();
            app.handle(new FakeRequest("GET", "/", "HTTP/1.1"), sink);
            lastStatus = sink.status;
        }
        return lastStatus;
    }

    @Test
    void withoutARolloutTheFirstVersionServesAlone() {
        Version first = new Version(200);
        AppSwitch app = switchOver(first);
        assertEquals(200, serve(app, 10));
        assertEquals(10, first.served.get());
        assertEquals(1, app.generation());
        assertNull(app.rollout());
    }

    @Test
    void theNewVersionsShareGrowsFromOnePercentToAllOverTheCanary() {
        Version old = new Version(200);
        Version next = new Version(200);
        AppSwitch app = switchOver(old);
        draw = Double.NaN; // seeded draws: the shares come out near the canary's
        Rollout rollout = app.begin(next, new Canary(10_000, 0.05, 20, 64));
        assertEquals(0.01, rollout.share(), 1e-9);
        serve(app, 2_000);
        assertTrue(next.served.get() < 100, "about 1 % at first, got " + next.served.get() + " of 2000");
        now.addAndGet(5_000);
        assertEquals(0.505, rollout.share(), 1e-9);
        next.served.set(0);
        serve(app, 2_000);
        assertTrue(next.served.get() > 800 && next.served.get() < 1_200, "about half, got " + next.served.get());
        assertNull(rollout.poll(), "undecided before the canary's end");
        now.addAndGet(5_000);
        assertTrue(next.served.get() >= 20, "enough answers to judge");
        Rollout.Outcome outcome = rollout.poll();
        assertTrue(outcome.switched());
        assertEquals(2, outcome.generation());
        assertEquals(2, app.generation());
        assertSame(next, app.handler());
        assertNull(app.rollout());
        old.served.set(0);
        serve(app, 100);
        assertEquals(0, old.served.get(), "the old version gets nothing once switched");
    }

    @Test
    void aNewVersionAnswering5xxIsRolledBackAtOnce() throws InterruptedException {
        Version old = new Version(200);
        Version broken = new Version(500);
        AppSwitch app = switchOver(old);
        Rollout rollout = app.begin(broken, new Canary(10_000, 0.05, 20, 64));
        now.addAndGet(10_000 - 1); // the whole share, and the canary not over
        serve(app, 20);
        Rollout.Outcome outcome = rollout.await();
        assertFalse(outcome.switched());
        assertEquals(Rollout.Result.ROLLED_BACK, outcome.result());
        assertEquals("new code 20 of 20 answers 5xx, old code 0 of 0 answers 5xx", outcome.tallies());
        assertEquals(1, app.generation());
        assertSame(old, app.handler());
        assertEquals(200, serve(app, 5));
        assertTrue(outcome.awaitIdle(1_000));
    }

    @Test
    void aHandlerThatThrowsCountsAsA5xx() {
        Version old = new Version(200);
        RackHandler raising = (request, sink) -> {
            throw new IllegalStateException("boom");
        };
        AppSwitch app = switchOver(old);
        Rollout rollout = app.begin(raising, new Canary(1_000, 0.05, 1, 64));
        now.addAndGet(1_000 - 1);
        assertThrows(IllegalStateException.class, () -> serve(app, 1));
        assertEquals(Rollout.Result.ROLLED_BACK, rollout.poll().result());
    }

    @Test
    void errorsTheOldVersionHasTooDoNotCountAgainstTheNewOne() {
        Version old = new Version(500);
        Version next = new Version(500);
        AppSwitch app = switchOver(old);
        draw = Double.NaN;
        Rollout rollout = app.begin(next, new Canary(10_000, 0.05, 20, 64));
        now.addAndGet(5_000);
        serve(app, 400);
        assertNull(rollout.poll(), "both answer 5xx alike: no rollback");
        now.addAndGet(5_000);
        assertTrue(rollout.poll().switched());
    }

    @Test
    void withTooFewAnswersToJudgeTheNewVersionGetsEveryRequestUntilItHasThem() {
        Version old = new Version(200);
        Version broken = new Version(500);
        AppSwitch app = switchOver(old);
        draw = 0.99; // the old version's, until the share is all
        Rollout rollout = app.begin(broken, new Canary(10_000, 0.05, 20, 64));
        serve(app, 50);
        now.addAndGet(10_000);
        assertNull(rollout.poll(), "no answer of the new code yet: not over");
        assertEquals(1.0, rollout.share());
        serve(app, 19);
        assertNull(rollout.poll(), "19 answers: not judged yet");
        serve(app, 1);
        assertEquals(Rollout.Result.ROLLED_BACK, rollout.poll().result());
        assertEquals("new code 20 of 20 answers 5xx, old code 0 of 50 answers 5xx", rollout.poll().tallies());
    }

    @Test
    void withNoTrafficTheNewVersionStaysOnceTheCanaryTimeHasPassedTwice() {
        AppSwitch app = switchOver(new Version(200));
        Rollout rollout = app.begin(new Version(200), new Canary(10_000, 0.05, 20, 64));
        now.addAndGet(19_999);
        assertNull(rollout.poll());
        now.addAndGet(1);
        assertTrue(rollout.poll().switched());
    }

    @Test
    void aSecondRolloutWaitsForTheFirstToEnd() {
        AppSwitch app = switchOver(new Version(200));
        app.begin(new Version(200), new Canary(1_000, 0.05, 20, 64));
        IllegalStateException refused = assertThrows(IllegalStateException.class,
            () -> app.begin(new Version(200), new Canary(1_000, 0.05, 20, 64)));
        assertEquals("a reload is under way already", refused.getMessage());
    }

    /** A version whose answer waits until {@code release}, once it has said {@code entered}. */
    private static RackHandler held(CountDownLatch entered, CountDownLatch release) {
        return (request, sink) -> {
            entered.countDown();
            try {
                release.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            sink.respond(200, new ResponseHeaders(), new byte[0], 0, 0);
        };
    }

    @Test
    void theLoserIsIdleOnlyOnceItsRunningRequestsAreDone() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        RackHandler slow = held(entered, release);
        AppSwitch app = switchOver(slow);
        Thread request = new Thread(() -> serve(app, 1));
        request.start();
        assertTrue(entered.await(10, TimeUnit.SECONDS), "the slow request never started");
        Rollout rollout = app.begin(new Version(200), new Canary(0, 0.05, 20, 64));
        Rollout.Outcome outcome = rollout.await();
        assertTrue(outcome.switched());
        assertFalse(outcome.awaitIdle(50), "the old version still runs a request");
        release.countDown();
        assertTrue(outcome.awaitIdle(10_000), "the old version's request never ended");
        request.join(10_000);
        assertFalse(request.isAlive());
    }

    @Test
    void theNewVersionRunsNoMoreThanItsLimitAtOnceWhileOnTrial() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        RackHandler slow = held(entered, release);
        Version old = new Version(200);
        AppSwitch app = switchOver(old);
        app.begin(slow, new Canary(10_000, 0.05, 20, 1));
        now.addAndGet(9_999); // a share of nearly all
        Thread busy = new Thread(() -> serve(app, 1));
        busy.start();
        assertTrue(entered.await(10, TimeUnit.SECONDS), "the first request went to the new version");
        assertEquals(200, serve(app, 5));
        assertEquals(5, old.served.get(), "the new version runs one already: the others go to the old one");
        release.countDown();
        busy.join(10_000);
        assertFalse(busy.isAlive());
    }

    @Test
    void canarySettingsOutOfRangeAreRefused() {
        assertEquals("a canary lasts 0 ms or more, got -1",
            assertThrows(IllegalArgumentException.class, () -> new Canary(-1, 0.05, 20, 64)).getMessage());
        assertEquals("an error rate is between 0 and 1, got 1.5",
            assertThrows(IllegalArgumentException.class, () -> new Canary(1, 1.5, 20, 64)).getMessage());
        assertEquals("a canary judges after 1 answer or more, got 0",
            assertThrows(IllegalArgumentException.class, () -> new Canary(1, 0.05, 0, 64)).getMessage());
        assertEquals("a canary runs 1 request or more at once, got 0",
            assertThrows(IllegalArgumentException.class, () -> new Canary(1, 0.05, 20, 0)).getMessage());
    }

    /** Keeps the status of the answer. */
    static final class StatusSink implements ResponseSink {
        int status;
        boolean finished;

        @Override
        public void respond(int status, ResponseHeaders headers, byte[] body, int offset, int length) {
            this.status = status;
            finished = true;
        }

        @Override
        public void begin(int status, ResponseHeaders headers, long contentLength) {
            this.status = status;
        }

        @Override
        public void write(byte[] bytes, int offset, int length) {
        }

        @Override
        public void sendFile(Path file, long offset, long length) {
        }

        @Override
        public void end() {
            finished = true;
        }

        @Override
        public void abort() {
            finished = true;
        }

        @Override
        public void upgrade(int status, ResponseHeaders headers, PushEndpoint endpoint) {
            this.status = status;
            finished = true;
        }

        @Override
        public boolean committed() {
            return finished;
        }

        @Override
        public boolean finished() {
            return finished;
        }
    }
}
