package org.nettyrack.redis;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.nettyrack.core.push.PubSub.Message;
import org.nettyrack.core.push.PubSub.Subscriber;

/**
 * A subscriber for the engines' tests that keeps what it gets, every wait bounded by
 * {@code wait}; and the text helpers and bounded wait those tests share.
 */
final class Inbox implements Subscriber {
    private final BlockingQueue<Message> messages = new LinkedBlockingQueue<>();
    private final Duration wait;

    Inbox(Duration wait) {
        this.wait = wait;
    }

    /** The gaps it was told of ({@link Subscriber#gap}), as "CHANNEL HEAD". */
    final java.util.List<String> gaps = new java.util.concurrent.CopyOnWriteArrayList<>();

    @Override
    public void deliver(Message message) {
        messages.add(message);
    }

    @Override
    public void gap(String channel, String head) {
        gaps.add(channel + " " + head);
    }

    Message next() throws InterruptedException {
        Message message = messages.poll(wait.toMillis(), TimeUnit.MILLISECONDS);
        assertNotNull(message, "no message within " + wait);
        return message;
    }

    /** The next message within {@code millis}, or null. */
    Message poll(long millis) throws InterruptedException {
        return messages.poll(millis, TimeUnit.MILLISECONDS);
    }

    boolean isEmpty() {
        return messages.isEmpty();
    }

    /** Waits up to {@code wait} for {@code condition}; fails naming {@code what} when it did not come. */
    static void await(Duration wait, BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + wait.toNanos();
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "timed out waiting: " + what);
            Thread.sleep(10);
        }
    }

    static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    static String text(Message message) {
        return new String(message.data(), StandardCharsets.UTF_8);
    }
}
