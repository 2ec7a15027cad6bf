package org.nettyrack.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.nettyrack.redis.Inbox.bytes;
import static org.nettyrack.redis.Inbox.text;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.nettyrack.core.push.HistoryLimits;
import org.nettyrack.core.push.PubSub.Message;
import redis.clients.jedis.Jedis;

/**
 * Two engines, as two nettyrack processes would have, finding their Redis master through three
 * real sentinels (quorum 2), and a master killed under them: both find the promoted replica by
 * themselves, say so in one line, and messages flow again.
 */
@Timeout(180)
class SentinelFailoverTest {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String NAME = "mymaster";

    private final List<RedisServer> servers = new ArrayList<>();
    private final List<String> logA = new CopyOnWriteArrayList<>();
    private final List<String> logB = new CopyOnWriteArrayList<>();
    private RedisServer master;
    private RedisServer replica;
    private final List<RedisServer> sentinels = new ArrayList<>();
    private RedisPubSub a;
    private RedisPubSub b;

    @BeforeEach
    void start() throws Exception {
        master = keep(RedisServer.start());
        replica = keep(RedisServer.replicaOf(master));
        for (int i = 0; i < 3; i++) {
            sentinels.add(keep(RedisServer.sentinelOf(master, NAME, 2, 1_000)));
        }
        await(() -> sentinels.stream().allMatch(this::knowsTheReplicaAndEachOther), "the sentinels to find the replica and each other");
    }

    @AfterEach
    void stop() throws Exception {
        for (RedisPubSub engine : new RedisPubSub[] {a, b}) {
            if (engine != null) {
                engine.close();
            }
        }
        for (RedisServer server : servers) {
            server.close();
        }
    }

    @Test
    void bothEnginesFollowAFailoverAndSayItOnce() throws Exception {
        a = engine(url(), logA);
        b = engine(url(), logB);
        Inbox inbox = new Inbox(WAIT);
        a.subscribe("feed", inbox);
        a.live("feed").get(20, TimeUnit.SECONDS);
        b.publish("feed", bytes("before"));
        assertEquals("before", text(inbox.next()));
        String was = "127.0.0.1:" + master.port();
        String now = "127.0.0.1:" + replica.port();
        assertEquals(List.of("nettyrack: pubsub: master mymaster is at " + was), logA, "one line for the master found");

        master.kill();
        int sent = 0;
        long deadline = System.nanoTime() + WAIT.toNanos();
        String received = null;
        while (received == null || !received.startsWith("after ")) {
            assertTrue(System.nanoTime() < deadline, "no message through the promoted replica within " + WAIT + ": " + logA);
            b.publish("feed", bytes("after " + sent++));
            Message message = inbox.poll(200);
            received = message == null ? received : text(message);
        }
        String switched = "nettyrack: pubsub: master mymaster is at " + now + " (was " + was + "): failed over";
        await(() -> logA.contains(switched) && logB.contains(switched), "both engines to say the master moved");
        assertEquals(1, logA.stream().filter(line -> line.contains("failed over")).count(), "one line per switch: " + logA);
        assertEquals("up", a.state().link(), "engine A up again: " + a.state());
    }

    /**
     * With a history, a numbered stream published through a failover reaches a subscriber with
     * nothing missing: unconfirmed batches go again, a batch counts only once the replica has it,
     * and the subscriber catches up from the new master's history. (A message may come twice.)
     */
    @Test
    void withAHistoryNoMessageOfAStreamIsMissedAcrossAFailover() throws Exception {
        HistoryLimits history = new HistoryLimits(100_000, 600_000, 1);
        a = RedisPubSub.builder(url()).history(history).backoff(50, 500).timeoutMillis(1_000).log(logA::add).start();
        b = RedisPubSub.builder(url()).history(history).backoff(50, 500).timeoutMillis(1_000).log(logB::add).start();
        Inbox inbox = new Inbox(WAIT);
        a.subscribe("feed", inbox);
        a.live("feed").get(20, TimeUnit.SECONDS);
        int total = 3_000;
        for (int n = 0; n < total; n++) {
            if (n == 1_000) {
                master.kill(); // a third of the way: some in flight, some queued, the rest after
            }
            b.publish("feed", bytes(Integer.toString(n)));
            if (n % 10 == 9) {
                Thread.sleep(2); // about 5,000 a second at most
            }
        }
        java.util.BitSet seen = new java.util.BitSet(total);
        while (seen.cardinality() < total) {
            Message message = inbox.poll(WAIT.toMillis());
            assertTrue(message != null, "missing after " + WAIT + ": " + (total - seen.cardinality())
                + " messages, the first " + seen.nextClearBit(0) + "; " + logA + logB);
            seen.set(Integer.parseInt(text(message)));
        }
        assertTrue(logB.stream().noneMatch(line -> line.contains("no longer in the history")), logB.toString());
    }

    @Test
    void aMasterNameNoSentinelKnowsIsSaidAndRetried() throws Exception {
        a = engine(url().replace("/" + NAME, "/nosuchmaster"), logA);
        await(() -> !logA.isEmpty(), "a line saying the master cannot be found");
        assertTrue(logA.get(0).matches("nettyrack: pubsub: cannot reach Redis at redis-sentinel://.+/nosuchmaster "
            + "\\(no sentinel gave the master nosuchmaster \\(.*knows no master nosuchmaster.*\\)\\); retrying"), logA.get(0));
        assertEquals("down", a.state().link());
    }

    private String url() {
        List<String> hosts = sentinels.stream().map(s -> "127.0.0.1:" + s.port()).toList();
        return SentinelUrl.SCHEME + String.join(",", hosts) + "/" + NAME;
    }

    private boolean knowsTheReplicaAndEachOther(RedisServer sentinel) {
        try (Jedis jedis = new Jedis("127.0.0.1", sentinel.port())) {
            return !jedis.sentinelReplicas(NAME).isEmpty() && jedis.sentinelSentinels(NAME).size() == sentinels.size() - 1;
        } catch (RuntimeException e) {
            return false;
        }
    }

    private RedisServer keep(RedisServer server) {
        servers.add(server);
        return server;
    }

    private static RedisPubSub engine(String url, List<String> log) {
        return RedisPubSub.builder(url).backoff(50, 500).timeoutMillis(1_000).log(log::add).start();
    }

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        Inbox.await(WAIT, condition, what);
    }
}
