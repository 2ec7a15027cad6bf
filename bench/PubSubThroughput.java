// Pub/sub throughput through one Redis engine URL, for bench/push-cluster: two engines, as two
// nettyrack processes would have (one publishes, one subscribes), on CHANNELS channels; MESSAGES
// messages of SIZE bytes published round-robin over the channels as fast as the engine's queue
// takes them, and timed from the first publish until the subscriber has every one. Started with
// Java's single-file source launcher against the jars nettyrack ships:
//
//   java -cp "lib/nettyrack/jars/*" bench/PubSubThroughput.java URL CHANNELS MESSAGES SIZE [HISTORY]
//
// URL is any --pubsub URL (redis://, redis-cluster://); HISTORY, when given, the messages each
// channel keeps (--push-history, for 300 s). Prints one JSON line:
//   {"url": ..., "channels": N, "messages": N, "size": N, "seconds": S, "per_second": N,
//    "received": N, "error": null | "what went wrong"}
// The publisher keeps at most 5,000 messages queued (the engine's queue drops the oldest beyond
// 10,000), so none is dropped; every wait is bounded (60 s for the subscriptions, 300 s in all).

import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.nettyrack.core.push.HistoryLimits;
import org.nettyrack.core.push.PubSub;
import org.nettyrack.redis.EngineBuilder;

public class PubSubThroughput {
    public static void main(String[] args) throws Exception {
        String url = args[0];
        int channels = Integer.parseInt(args[1]);
        int messages = Integer.parseInt(args[2]);
        int size = Integer.parseInt(args[3]);
        HistoryLimits history = args.length > 4 ? new HistoryLimits(Integer.parseInt(args[4]), 300_000, 10_000) : HistoryLimits.NONE;
        PubSub publisher = EngineBuilder.of(url).history(history).log(line -> System.err.println("publisher: " + line)).start();
        PubSub subscriber = EngineBuilder.of(url).history(history).log(line -> System.err.println("subscriber: " + line)).start();
        String error = null;
        long started = 0;
        long finished = 0;
        AtomicLong received = new AtomicLong();
        CountDownLatch all = new CountDownLatch(1);
        try {
            PubSub.Subscriber counter = message -> {
                if (received.incrementAndGet() == messages) {
                    all.countDown();
                }
            };
            String[] names = new String[channels];
            for (int i = 0; i < channels; i++) {
                names[i] = "bench:" + i;
                subscriber.subscribe(names[i], counter);
            }
            for (String name : names) {
                subscriber.live(name).get(60, TimeUnit.SECONDS);
            }
            byte[] data = "x".repeat(size).getBytes(StandardCharsets.US_ASCII);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(300);
            started = System.nanoTime();
            for (int n = 0; n < messages; n++) {
                while (queued(publisher) > 5_000) {
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException("the publisher's queue did not drain within 300 s");
                    }
                    Thread.onSpinWait();
                }
                publisher.publish(names[n % channels], data);
            }
            if (!all.await(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                error = "only " + received.get() + " of " + messages + " received within 300 s";
            }
            finished = System.nanoTime();
        } catch (Exception e) {
            error = e.toString();
        } finally {
            publisher.close();
            subscriber.close();
        }
        double seconds = (finished - started) / 1e9;
        System.out.printf("{\"url\": \"%s\", \"channels\": %d, \"messages\": %d, \"size\": %d, \"seconds\": %.3f, "
                + "\"per_second\": %d, \"received\": %d, \"error\": %s}%n", url, channels, messages, size, seconds,
            seconds > 0 ? Math.round(received.get() / seconds) : 0, received.get(),
            error == null ? "null" : "\"" + error.replace("\"", "'") + "\"");
    }

    private static int queued(PubSub engine) {
        Integer queued = engine.state().queued();
        return queued == null ? 0 : queued;
    }
}
