package org.nettyrack.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class PublishQueueTest {
    private final List<String> log = new CopyOnWriteArrayList<>();
    private final PublishQueue queue = new PublishQueue(3, new LinkStatus(RedisUrl.parse("redis://h"), log::add));

    @Test
    void dropsTheOldestWhenFullAndLogsOnceWhenDroppingStartsAndOnceWhenDrained() {
        for (int i = 1; i <= 6; i++) {
            queue.offer(message(i));
        }
        assertEquals(List.of("nettyrack: pubsub: publish queue full (3 messages waiting for Redis); dropping the oldest"), log);
        assertEquals(List.of("4", "5"), texts(queue.take(2)));
        assertEquals(1, log.size());
        assertEquals(List.of("6"), texts(queue.take(10)));
        assertEquals("nettyrack: pubsub: publish queue drained; 3 messages were dropped", log.get(1));

        queue.offer(message(7));
        queue.offer(message(8));
        assertEquals(List.of("7", "8"), texts(queue.take(10)));
        assertEquals(2, log.size());
    }

    @Test
    void messagesPutBackGoFirstInTheirOrderAndTheOldestAreDroppedBeyondTheCapacity() {
        queue.offer(message(3));
        queue.requeue(List.of(message(1), message(2)));
        assertEquals(List.of("1", "2", "3"), texts(queue.take(10)));
        assertEquals(List.of(), log);

        queue.offer(message(5));
        queue.offer(message(6));
        queue.requeue(List.of(message(3), message(4)));
        assertEquals(List.of("nettyrack: pubsub: publish queue full (3 messages waiting for Redis); dropping the oldest"), log);
        assertEquals(List.of("4", "5", "6"), texts(queue.take(10)));
        assertEquals("nettyrack: pubsub: publish queue drained; 1 messages were dropped", log.get(1));
    }

    @Test
    void awaitReturnsForMessagesOnlyWhenAskedTo() throws InterruptedException {
        queue.offer(message(1));
        long start = System.nanoTime();
        queue.await(true, TimeUnit.SECONDS.toNanos(10));
        queue.await(false, TimeUnit.MILLISECONDS.toNanos(50));
        long took = System.nanoTime() - start;
        assertTrue(took >= TimeUnit.MILLISECONDS.toNanos(50) && took < TimeUnit.SECONDS.toNanos(5), took + " ns");
    }

    @Test
    void wakeAndCloseEndAWait() throws InterruptedException {
        queue.wake();
        queue.await(false, TimeUnit.SECONDS.toNanos(10)); // returns at once, and clears the wake-up
        Thread closer = new Thread(queue::close);
        closer.start();
        queue.await(false, TimeUnit.SECONDS.toNanos(10));
        closer.join(10_000);
        assertFalse(closer.isAlive(), "close() returned");
        assertTrue(queue.isClosed());
    }

    private static PublishQueue.Outgoing message(int n) {
        return new PublishQueue.Outgoing("c".getBytes(StandardCharsets.UTF_8), String.valueOf(n).getBytes(StandardCharsets.UTF_8), n);
    }

    private static List<String> texts(List<PublishQueue.Outgoing> batch) {
        return batch.stream().map(m -> new String(m.data(), StandardCharsets.UTF_8)).toList();
    }
}
