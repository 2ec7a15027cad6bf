package org.nettyrack.core.push;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.nettyrack.core.ErrorLog;

/** In-process fan-out: who is subscribed, who gets each message, and what counts as text. */
class LocalPubSubTest {
    private final ByteArrayOutputStream errors = new ByteArrayOutputStream();
    private final LocalPubSub pubsub = new LocalPubSub(new ErrorLog(errors));

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static final class Inbox implements PubSub.Subscriber {
        final List<PubSub.Message> received = Collections.synchronizedList(new ArrayList<>());

        @Override
        public void deliver(PubSub.Message message) {
            received.add(message);
        }
    }

    @Test
    void addAndRemoveReportTheFirstAndLastSubscriber() {
        Inbox a = new Inbox();
        Inbox b = new Inbox();
        assertTrue(pubsub.add("room", a), "first subscriber");
        assertFalse(pubsub.add("room", b));
        assertFalse(pubsub.add("room", a), "already there: not first");
        assertTrue(pubsub.add("other", a), "first of another channel");
        assertEquals(2, pubsub.subscribers("room"));
        assertEquals(Set.of("room", "other"), Set.copyOf(pubsub.channels()));

        assertFalse(pubsub.remove("room", a), "b is still there");
        assertFalse(pubsub.remove("room", a), "a was gone already");
        assertTrue(pubsub.remove("room", b), "the last one left");
        assertEquals(0, pubsub.subscribers("room"));
        assertEquals(Set.of("other"), Set.copyOf(pubsub.channels()));
        assertFalse(pubsub.remove("nowhere", a), "an unknown channel has nothing to empty");
        assertTrue(pubsub.add("room", b), "first again after emptying");
    }

    @Test
    void publishReachesEverySubscriberOfTheChannelOnce() {
        Inbox a = new Inbox();
        Inbox b = new Inbox();
        Inbox elsewhere = new Inbox();
        pubsub.subscribe("room", a);
        pubsub.subscribe("room", b);
        pubsub.subscribe("room", a); // subscribing twice still means once
        pubsub.subscribe("other", elsewhere);

        byte[] data = utf8("hello");
        pubsub.publish("room", data);

        assertEquals(1, a.received.size());
        assertEquals(1, b.received.size());
        assertEquals(0, elsewhere.received.size());
        PubSub.Message m = a.received.get(0);
        assertEquals("room", m.channel());
        assertTrue(m.text());
        assertSame(data, m.data(), "the data is shared, not copied");
        assertSame(m, b.received.get(0), "one message object for all subscribers");
    }

    @Test
    void publishingToAChannelNobodyWatchesDoesNothing() {
        pubsub.publish("empty", utf8("x"));
        assertEquals(0, pubsub.subscribers("empty"));
        assertTrue(pubsub.channels().isEmpty(), "publishing creates no channel");
    }

    @Test
    void unsubscribeStopsDelivery() {
        Inbox a = new Inbox();
        Inbox b = new Inbox();
        pubsub.subscribe("room", a);
        pubsub.subscribe("room", b);
        pubsub.publish("room", utf8("1"));
        pubsub.unsubscribe("room", a);
        pubsub.publish("room", utf8("2"));
        assertEquals(1, a.received.size());
        assertEquals(2, b.received.size());
    }

    @Test
    void aThrowingSubscriberDoesNotStarveTheOthers() {
        AtomicInteger delivered = new AtomicInteger();
        for (int i = 0; i < 5; i++) {
            int n = i; // captured, so that each lambda is a subscriber of its own
            pubsub.subscribe("room", m -> delivered.incrementAndGet());
            pubsub.subscribe("room", m -> {
                throw new IllegalStateException("bad subscriber " + n + " (expected by the test)");
            });
        }
        pubsub.publish("room", utf8("x"));
        assertEquals(5, delivered.get(), "whatever the iteration order, every good subscriber got it");
        String log = errors.toString(StandardCharsets.UTF_8);
        assertEquals(5, log.split("nettyrack: a subscriber of room failed: java.lang.IllegalStateException", -1).length - 1,
            "each failure reported to the server's error log: " + log);
    }

    @Test
    void deliverFansOutAMessageAsGiven() {
        Inbox a = new Inbox();
        pubsub.subscribe("room", a);
        PubSub.Message binary = new PubSub.Message("room", utf8("abc"), false);
        pubsub.deliver(binary);
        assertSame(binary, a.received.get(0), "deliver does not re-detect text");
    }

    static Stream<Arguments> payloads() {
        return Stream.of(
            Arguments.of("empty", new byte[0], true),
            Arguments.of("ASCII", utf8("hello, world\n"), true),
            Arguments.of("two-byte", utf8("h\u00e9llo"), true),
            Arguments.of("three-byte", utf8("\u2713 done"), true),
            Arguments.of("four-byte", utf8("smile \uD83D\uDE00"), true),
            Arguments.of("0xFF", new byte[] {'a', (byte) 0xFF}, false),
            Arguments.of("lone continuation", new byte[] {(byte) 0x80}, false),
            Arguments.of("truncated two-byte at the end", new byte[] {'a', (byte) 0xC3}, false),
            Arguments.of("overlong NUL", new byte[] {(byte) 0xC0, (byte) 0x80}, false),
            Arguments.of("UTF-16 surrogate", new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, false),
            Arguments.of("valid then invalid", new byte[] {(byte) 0xC3, (byte) 0xA9, (byte) 0xFE}, false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("payloads")
    void messagesAreTextWhenTheyAreValidUtf8(String name, byte[] data, boolean text) {
        assertEquals(text, PubSub.Message.of("c", data).text());
    }

    /**
     * A subscribe racing the channel's last unsubscribe must not land in a set that remove()
     * has just dropped from the map (where nobody would ever publish to it). Both run on their
     * own threads, released together, many times over.
     */
    @Test
    void subscribeRacingTheLastUnsubscribeStillSubscribes() throws Exception {
        java.util.concurrent.ExecutorService threads = java.util.concurrent.Executors.newFixedThreadPool(2);
        try {
            for (int round = 0; round < 10_000; round++) {
                LocalPubSub engine = new LocalPubSub();
                Inbox leaving = new Inbox();
                AtomicInteger received = new AtomicInteger();
                PubSub.Subscriber joining = message -> received.incrementAndGet();
                engine.subscribe("room", leaving);
                java.util.concurrent.CyclicBarrier start = new java.util.concurrent.CyclicBarrier(2);
                java.util.concurrent.Future<?> leave = threads.submit(() -> {
                    start.await();
                    engine.unsubscribe("room", leaving);
                    return null;
                });
                java.util.concurrent.Future<?> join = threads.submit(() -> {
                    start.await();
                    engine.subscribe("room", joining);
                    return null;
                });
                leave.get(10, java.util.concurrent.TimeUnit.SECONDS);
                join.get(10, java.util.concurrent.TimeUnit.SECONDS);
                engine.publish("room", utf8("hello"));
                assertEquals(1, received.get(), "round " + round + ": the new subscriber gets the message");
            }
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void batchesDeliveriesToEachExecutorInOneTask() {
        java.util.List<Runnable> loopA = new java.util.ArrayList<>();
        java.util.List<Runnable> loopB = new java.util.ArrayList<>();
        java.util.concurrent.Executor executorA = loopA::add;
        java.util.concurrent.Executor executorB = loopB::add;
        AtomicInteger delivered = new AtomicInteger();
        for (int i = 0; i < 100; i++) {
            java.util.concurrent.Executor executor = i % 2 == 0 ? executorA : executorB;
            pubsub.subscribe("room", new PubSub.Batched() {
                @Override
                public void deliver(PubSub.Message message) {
                    delivered.incrementAndGet();
                }

                @Override
                public java.util.concurrent.Executor executor() {
                    return executor;
                }
            });
        }
        Inbox direct = new Inbox();
        pubsub.subscribe("room", direct);

        pubsub.publish("room", utf8("hi"));

        assertEquals(1, direct.received.size(), "a plain subscriber hears it on the publisher's thread");
        assertEquals(List.of(1, 1), List.of(loopA.size(), loopB.size()), "one task per executor");
        assertEquals(0, delivered.get(), "nothing delivered before the executors ran");
        loopA.forEach(Runnable::run);
        loopB.forEach(Runnable::run);
        assertEquals(100, delivered.get());
    }
}
