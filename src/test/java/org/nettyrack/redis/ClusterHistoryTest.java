package org.nettyrack.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.nettyrack.redis.Inbox.bytes;
import static org.nettyrack.redis.Inbox.text;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.nettyrack.core.push.HistoryLimits;
import org.nettyrack.core.push.PubSub.Message;
import org.nettyrack.core.push.Replay;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.args.ClientType;
import redis.clients.jedis.params.ClientKillParams;

/** The push history on a real six-node Redis Cluster: each slot's master keeps its channels' messages. */
@Timeout(240)
class ClusterHistoryTest {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final HistoryLimits LIMITS = new HistoryLimits(5, 60_000, 1);

    private final List<String> log = new CopyOnWriteArrayList<>();
    private final List<ClusterPubSub> engines = new ArrayList<>();
    private RedisCluster cluster;

    @BeforeEach
    void start() throws Exception {
        cluster = RedisCluster.start(WAIT);
    }

    @AfterEach
    void stop() throws Exception {
        engines.forEach(ClusterPubSub::close);
        if (cluster != null) {
            cluster.close();
        }
    }

    private ClusterPubSub engine(long backoffMillis) {
        ClusterPubSub engine = ClusterPubSub.builder(cluster.url()).history(LIMITS).backoff(backoffMillis, Math.max(500, backoffMillis))
            .timeoutMillis(1_000).log(log::add).start();
        engines.add(engine);
        return engine;
    }

    private static List<String> texts(Replay replay) {
        return replay.missed().stream().map(m -> new String(m.data(), StandardCharsets.UTF_8)).toList();
    }

    @Test
    void channelsOnEveryShardResumeFromTheirIdsOnAnyProcess() throws Exception {
        ClusterPubSub a = engine(50);
        ClusterPubSub b = engine(50);
        List<String> channels = List.of("room:0", "room:1", "room:2", "room:3", "room:4", "room:5");
        Set<RedisServer> owners = new HashSet<>();
        channels.forEach(channel -> owners.add(cluster.owner(channel)));
        assertEquals(3, owners.size(), "the channels spread over all three masters");

        List<Message> first = new ArrayList<>();
        for (String channel : channels) {
            Inbox inbox = new Inbox(WAIT);
            a.subscribe(channel, inbox);
            a.live(channel).get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            for (String data : List.of("1", "2", "3")) {
                b.publish(channel, bytes(channel + " " + data));
            }
            Message one = inbox.next();
            assertNotNull(one.id(), "a kept message carries its id");
            assertEquals(channel + " 1", text(one));
            first.add(one);
            assertEquals(channel + " 2", text(inbox.next()));
            assertEquals(channel + " 3", text(inbox.next()));
        }

        ClusterPubSub restarted = engine(50); // another process: the history is the cluster's
        for (int i = 0; i < channels.size(); i++) {
            String channel = channels.get(i);
            Replay replay = restarted.resume(channel, first.get(i).id().toString());
            assertEquals(Replay.Outcome.RESUMED, replay.outcome(), channel);
            assertEquals(List.of(channel + " 2", channel + " 3"), texts(replay));
            assertEquals(Replay.Outcome.RESET, restarted.resume(channel, "nope").outcome());
        }
        assertEquals(List.of(), log.stream().filter(line -> line.contains("history")).toList());
    }

    /** A subscriber connection that broke: what was published meanwhile comes from its master's history. */
    @Test
    void aListenerThatLostItsConnectionCatchesUpFromTheHistory() throws Exception {
        ClusterPubSub a = engine(500);
        ClusterPubSub b = engine(50);
        String channel = "room:0";
        Inbox inbox = new Inbox(WAIT);
        a.subscribe(channel, inbox);
        a.live(channel).get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        b.publish(channel, bytes("before"));
        assertEquals("before", text(inbox.next()));

        RedisServer owner = cluster.owner(channel);
        try (Jedis jedis = new Jedis("127.0.0.1", owner.port())) {
            jedis.clientKill(ClientKillParams.clientKillParams().type(ClientType.PUBSUB));
        }
        for (String data : List.of("while", "the link", "was down")) {
            b.publish(channel, bytes(data));
        }
        List<String> got = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            got.add(text(inbox.next()));
        }
        assertEquals(List.of("while", "the link", "was down"), got);
        b.publish(channel, bytes("after"));
        assertEquals("after", text(inbox.next()), "then live messages, none twice");
        assertNull(inbox.poll(200));
        assertTrue(log.stream().noneMatch(line -> line.contains("no longer in the history")), log.toString());
    }
}
