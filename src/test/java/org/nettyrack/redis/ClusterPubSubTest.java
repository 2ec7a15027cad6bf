package org.nettyrack.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.nettyrack.redis.Inbox.bytes;
import static org.nettyrack.redis.Inbox.text;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.nettyrack.core.push.PubSub.Message;

/**
 * Two engines, as two nettyrack processes would have, on a real six-node Redis Cluster (three
 * masters, a replica each): channels spread over every shard, each carried by its own master
 * alone; a slot moved under a subscribed channel; a master SIGKILLed and its replica promoted.
 */
@Timeout(240)
class ClusterPubSubTest {
    private static final Duration WAIT = Duration.ofSeconds(60);

    private final List<String> logA = new CopyOnWriteArrayList<>();
    private final List<String> logB = new CopyOnWriteArrayList<>();
    private RedisCluster cluster;
    private ClusterPubSub a;
    private ClusterPubSub b;

    @BeforeEach
    void start() throws Exception {
        cluster = RedisCluster.start(WAIT);
        a = engine(cluster.url(), logA);
        b = engine(cluster.url(), logB);
    }

    @AfterEach
    void stop() throws Exception {
        for (ClusterPubSub engine : new ClusterPubSub[] {a, b}) {
            if (engine != null) {
                engine.close();
            }
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void channelsOnEveryShardReachBothEnginesInOrderThroughTheirOwnMasterOnly() throws Exception {
        List<String> channels = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            channels.add("room:" + i);
        }
        Set<RedisServer> owners = new HashSet<>();
        channels.forEach(channel -> owners.add(cluster.owner(channel)));
        assertEquals(3, owners.size(), "the channels spread over all three masters");

        Map<String, Inbox> onA = subscribe(a, channels);
        Map<String, Inbox> onB = subscribe(b, channels);
        for (String channel : channels) {
            RedisServer owner = cluster.owner(channel);
            for (RedisServer master : cluster.masters()) {
                assertEquals(master == owner ? 2 : 0, cluster.shardSubscribers(master, channel),
                    channel + " is subscribed on its own master only (" + owner.port() + "), here " + master.port());
            }
        }

        int count = 20;
        for (int n = 0; n < count; n++) {
            for (int i = 0; i < channels.size(); i++) {
                (i % 2 == 0 ? a : b).publish(channels.get(i), bytes(channels.get(i) + " #" + n));
            }
        }
        for (Map<String, Inbox> inboxes : List.of(onA, onB)) {
            for (String channel : channels) {
                for (int n = 0; n < count; n++) {
                    Message message = inboxes.get(channel).next();
                    assertEquals(channel, message.channel());
                    assertEquals(channel + " #" + n, text(message), "in order");
                }
            }
        }
        assertTrue(onA.values().stream().allMatch(Inbox::isEmpty), "nothing twice");
        assertEquals(1, logA.size(), "one line for the layout: " + logA);
        assertTrue(logA.get(0).startsWith("nettyrack: pubsub: cluster masters: 127.0.0.1:"), logA.get(0));
        assertEquals("up", a.state().link());
        assertEquals("redis-cluster", a.state().engine());
        assertEquals(cluster.url(), a.state().url());
        assertEquals(0, a.queued());
    }

    @Test
    void aChannelWhoseSlotMovesIsSubscribedAgainOnItsNewMaster() throws Exception {
        String channel = "moving";
        int slot = SlotMap.slot(channel);
        Inbox inbox = subscribe(a, List.of(channel)).get(channel);
        b.publish(channel, bytes("before"));
        assertEquals("before", text(inbox.next()));

        RedisServer from = cluster.owner(slot);
        RedisServer to = cluster.masters().stream().filter(master -> master != from).findFirst().orElseThrow();
        cluster.moveSlot(slot, to);
        await(() -> cluster.shardSubscribers(to, channel) == 1, "the engine to subscribe on the new master");
        assertEquals(0, cluster.shardSubscribers(from, channel));
        b.publish(channel, bytes("after")); // b still has the old layout: MOVED, then sent again
        assertEquals("after", text(inbox.next()));

        String moved = "nettyrack: pubsub: cluster: slot " + slot + " is at 127.0.0.1:" + to.port()
            + " (was 127.0.0.1:" + from.port() + "): resharded";
        await(() -> logA.contains(moved) && logB.contains(moved), "both engines to say the slot moved: " + logA + logB);
        assertEquals(2, logA.size(), "the layout, then the move: " + logA);
        assertTrue(inbox.isEmpty(), "nothing twice");
    }

    @Test
    void aKilledMastersChannelsFlowAgainThroughThePromotedReplica() throws Exception {
        List<String> channels = List.of("room:0", "room:1", "room:2", "room:3", "room:4", "room:5");
        Map<String, Inbox> inboxes = subscribe(a, channels);
        String channel = channels.get(0);
        Inbox inbox = inboxes.get(channel);
        b.publish(channel, bytes("before"));
        assertEquals("before", text(inbox.next()));
        RedisServer dead = cluster.owner(channel);

        dead.kill();
        long killed = System.nanoTime();
        int sent = 0;
        String received = null;
        while (received == null || !received.startsWith("after ")) {
            assertTrue(System.nanoTime() - killed < WAIT.toNanos(), "no message through the promoted replica within " + WAIT + ": " + logA);
            b.publish(channel, bytes("after " + sent++));
            Message message = inbox.poll(100);
            received = message == null ? received : text(message);
        }
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killed);
        System.out.println("ClusterPubSubTest: first message through the promoted replica " + millis + " ms after the kill");
        RedisServer promoted = cluster.owner(channel);
        assertNotEquals(dead, promoted);

        String failedOver = "at 127.0.0.1:" + promoted.port() + " (was 127.0.0.1:" + dead.port() + "): failed over";
        await(() -> logA.stream().anyMatch(line -> line.contains(failedOver)), "engine A to say the master moved: " + logA);
        assertEquals(1, logA.stream().filter(line -> line.contains("failed over")).count(), "one line per change: " + logA);

        dead.restart(); // it comes back as a replica of the promoted one
        cluster.awaitFailedOver(dead);
        await(() -> "up".equals(a.state().link()) && "up".equals(b.state().link()), "both engines up again");
        for (String other : channels) {
            a.live(other).get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            b.publish(other, bytes("again"));
        }
        for (String other : channels) {
            String last;
            do {
                last = text(inboxes.get(other).next());
            } while (last.startsWith("after ") || last.equals("before"));
            assertEquals("again", last, other);
        }
    }

    private Map<String, Inbox> subscribe(ClusterPubSub engine, List<String> channels) throws Exception {
        Map<String, Inbox> inboxes = new LinkedHashMap<>();
        for (String channel : channels) {
            Inbox inbox = new Inbox(WAIT);
            engine.subscribe(channel, inbox);
            inboxes.put(channel, inbox);
        }
        for (String channel : channels) {
            engine.live(channel).get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        }
        return inboxes;
    }

    private static ClusterPubSub engine(String url, List<String> log) {
        return ClusterPubSub.builder(url).backoff(50, 500).timeoutMillis(1_000).log(log::add).start();
    }

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        Inbox.await(WAIT, condition, what);
    }
}
