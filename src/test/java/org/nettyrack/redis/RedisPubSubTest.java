package org.nettyrack.redis;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.nettyrack.redis.Inbox.bytes;
import static org.nettyrack.redis.Inbox.text;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.nettyrack.core.push.PubSub;
import org.nettyrack.core.push.PubSub.Message;

/** Two engines, as two nettyrack processes would have, against a real redis-server. */
@Timeout(120)
class RedisPubSubTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    private RedisServer redis;
    private final List<String> logA = new CopyOnWriteArrayList<>();
    private final List<String> logB = new CopyOnWriteArrayList<>();
    private RedisPubSub a;
    private RedisPubSub b;

    @BeforeEach
    void start() throws Exception {
        redis = RedisServer.start();
        a = engine(redis.url(), logA);
        b = engine(redis.url(), logB);
    }

    @AfterEach
    void stop() throws Exception {
        if (a != null) {
            a.close();
        }
        if (b != null) {
            b.close();
        }
        if (redis != null) {
            redis.close();
        }
    }

    @Test
    void aMessagePublishedOnOneEngineReachesSubscribersOnBoth() throws Exception {
        Inbox onA = new Inbox(WAIT);
        Inbox onB = new Inbox(WAIT);
        String channel = "chat:żółw";
        a.subscribe(channel, onA);
        b.subscribe(channel, onB);
        await(() -> redis.subscribers(channel) == 2, "both engines subscribed in Redis");

        byte[] binary = {0, (byte) 0xff, (byte) 0xc3, 10};
        a.publish(channel, "hello".getBytes(StandardCharsets.UTF_8));
        a.publish(channel, binary);

        for (Inbox inbox : List.of(onA, onB)) {
            Message first = inbox.next();
            assertEquals(channel, first.channel());
            assertEquals("hello", new String(first.data(), StandardCharsets.UTF_8));
            assertTrue(first.text());
            Message second = inbox.next();
            assertArrayEquals(binary, second.data());
            assertFalse(second.text());
        }
        assertEquals(List.of(), logA);
        assertEquals(List.of(), logB);
    }

    /**
     * A fresh engine (a hot restart's new process) whose first subscriber is told the channel
     * is live only once Redis confirmed it: what is published from then on arrives.
     */
    @Test
    void aChannelIsLiveOnceRedisConfirmedItAndFromThenOnNothingIsMissed() throws Exception {
        Inbox inbox = new Inbox(WAIT);
        b.subscribe("ticks", inbox);
        b.live("ticks").get(10, TimeUnit.SECONDS);
        assertEquals(1, redis.subscribers("ticks"), "Redis has the subscription when live says so");
        a.publish("ticks", bytes("1"));
        assertEquals("1", text(inbox.next()));
        b.unsubscribe("ticks", inbox);
        await(() -> redis.subscribers("ticks") == 0, "unsubscribed in Redis");
        // The engine forgets the channel when Redis's reply to UNSUBSCRIBE reaches its
        // subscriber thread, which may come a moment after Redis counts 0.
        await(() -> !b.live("ticks").isDone(), "live again only once subscribed again");
        Inbox again = new Inbox(WAIT);
        b.subscribe("ticks", again);
        b.live("ticks").get(10, TimeUnit.SECONDS);
        a.publish("ticks", bytes("2"));
        assertEquals("2", text(again.next()));
    }

    @Test
    void unsubscribingTheLastSubscriberStopsDelivery() throws Exception {
        Inbox inbox = new Inbox(WAIT);
        Inbox other = new Inbox(WAIT);
        b.subscribe("news", inbox);
        b.subscribe("news", other);
        b.subscribe("marker", inbox);
        await(() -> redis.subscribers("news") == 1 && redis.subscribers("marker") == 1, "subscribed");

        b.unsubscribe("news", other); // a subscriber is left: still subscribed in Redis
        a.publish("news", bytes("1"));
        assertEquals("1", text(inbox.next()));
        assertEquals(1, redis.subscribers("news"));

        b.unsubscribe("news", inbox);
        await(() -> redis.subscribers("news") == 0, "unsubscribed in Redis");
        a.publish("news", bytes("2"));
        a.publish("marker", bytes("after"));
        assertEquals("after", text(inbox.next())); // Redis keeps order: "2" would have come first
        assertTrue(inbox.isEmpty());
        assertTrue(other.isEmpty());
    }

    @Test
    void survivesRedisRestartingAndResubscribes() throws Exception {
        Inbox inbox = new Inbox(WAIT);
        b.subscribe("jobs", inbox);
        // Redis counts the subscription before B has read its reply: wait until B knows it is up,
        // or the kill below would look like Redis never having answered ("cannot reach").
        await(() -> redis.subscribers("jobs") == 1 && "up".equals(b.state().link()), "subscribed");

        redis.kill();
        await(() -> logB.size() == 1, "B logs the loss");
        assertTrue(logB.get(0).matches("nettyrack: pubsub: lost Redis at " + redis.url() + " \\(.+\\); reconnecting"),
            logB.get(0));
        assertEquals(new PubSub.State("redis", redis.url(), "down", 0), b.state(), "what /stats reports");

        long start = System.nanoTime();
        for (int i = 0; i < 1000; i++) {
            a.publish("jobs", bytes("lost " + i)); // Redis is down: queued, never waited for
        }
        assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(5), "1000 publishes while Redis is down took "
            + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) + " ms");
        assertEquals(0, b.flow().reconnects());
        assertTrue(a.flow().lagNanos() > 0, "the metrics' lag: the oldest queued message waits");

        redis.restart();
        await(() -> logB.size() == 2, "B logs the reconnection");
        assertEquals("nettyrack: pubsub: reconnected to " + redis.url(), logB.get(1));
        assertEquals("up", b.state().link());
        assertEquals(1, b.flow().reconnects(), "what the metrics count");
        await(() -> a.queued() == 0 && a.flow().lagNanos() == 0, "the queue sent: no lag");
        await(() -> redis.subscribers("jobs") == 1, "B subscribed again");

        a.publish("jobs", bytes("back"));
        String text;
        do {
            text = text(inbox.next()); // messages queued while down may come first
        } while (text.startsWith("lost "));
        assertEquals("back", text);
        assertEquals(2, logB.size());
    }

    @Test
    void givesUpOnARedisThatStopsAnsweringAndComesBackWhenItDoes() throws Exception {
        List<String> log = new CopyOnWriteArrayList<>();
        try (RedisPubSub engine = RedisPubSub.builder(redis.url()).pingMillis(100).timeoutMillis(500).backoff(50, 200)
                .log(log::add).start()) {
            Inbox inbox = new Inbox(WAIT);
            engine.subscribe("beat", inbox);
            await(() -> redis.subscribers("beat") == 1 && "up".equals(engine.state().link()), "subscribed");

            redis.pause(true); // its connections stay open, silent: only the missing PONGs tell
            await(() -> !log.isEmpty(), "the loss noticed");
            assertTrue(log.get(0).matches("nettyrack: pubsub: lost Redis at " + redis.url() + " \\(.+\\); reconnecting"),
                log.get(0));
            redis.pause(false);
            await(() -> log.contains("nettyrack: pubsub: reconnected to " + redis.url()), "the return noticed");
            await(() -> redis.subscribers("beat") >= 1, "subscribed again");
            a.publish("beat", bytes("alive"));
            assertEquals("alive", text(inbox.next()));
        }
    }

    @Test
    void publishingNeverBlocksWhileRedisIsAwayAndDropsTheOldestBeyondCapacity() throws Exception {
        List<String> log = new CopyOnWriteArrayList<>();
        redis.kill();
        try (RedisPubSub engine = RedisPubSub.builder(redis.url()).queueCapacity(100).log(log::add).start()) {
            await(() -> !log.isEmpty(), "the first failure logged");
            assertTrue(log.get(0).startsWith("nettyrack: pubsub: cannot reach Redis at " + redis.url() + " ("), log.get(0));
            long start = System.nanoTime();
            for (int i = 0; i < 1000; i++) {
                engine.publish("c", bytes(String.valueOf(i)));
            }
            assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(5), "publishing blocked");
            assertEquals(100, engine.queued());
            assertEquals("nettyrack: pubsub: publish queue full (100 messages waiting for Redis); dropping the oldest",
                log.get(1));

            Inbox inbox = new Inbox(WAIT);
            b.subscribe("c", inbox);
            redis.restart();
            await(() -> engine.queued() == 0, "the queue sent once Redis is back");
            assertTrue(log.contains("nettyrack: pubsub: connected to " + redis.url()), log.toString());
            assertTrue(log.contains("nettyrack: pubsub: publish queue drained; 900 messages were dropped"), log.toString());
        }
    }

    @Test
    void closeIsPromptWhateverRedisIsDoing() throws Exception {
        Inbox inbox = new Inbox(WAIT);
        a.subscribe("x", inbox);
        await(() -> redis.subscribers("x") == 1, "subscribed");
        assertClosesPromptly(a);
        await(() -> redis.subscribers("x") == 0, "A's connection gone");

        redis.kill();
        await(() -> logB.size() == 1, "B logs the loss");
        assertClosesPromptly(b);
        assertFalse(threadsAlive(), "engine threads left: " + Thread.getAllStackTraces().keySet());
    }

    private static void assertClosesPromptly(RedisPubSub engine) {
        long start = System.nanoTime();
        engine.close();
        long took = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertTrue(took < 3_000, "close took " + took + " ms");
    }

    private static boolean threadsAlive() {
        return Thread.getAllStackTraces().keySet().stream()
            .anyMatch(t -> t.isAlive() && t.getName().startsWith("nettyrack-pubsub-"));
    }

    private static RedisPubSub engine(String url, List<String> log) {
        return RedisPubSub.builder(url).backoff(50, 500).log(log::add).start();
    }

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        Inbox.await(WAIT, condition, what);
    }
}
