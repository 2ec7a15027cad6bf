package org.nettyrack.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.nettyrack.core.push.PubSub;

/** Starting a Cluster engine: the URL's scheme picks it; a bad URL or a seed outside a cluster is one clear line. */
@Timeout(60)
class ClusterPubSubStartTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    @Test
    void theSchemePicksTheEngineAndABadUrlIsOneClearLine() {
        try (PubSub engine = EngineBuilder.of("redis-cluster://127.0.0.1:1").backoff(50, 100).start()) {
            assertInstanceOf(ClusterPubSub.class, engine);
            assertEquals(new PubSub.State("redis-cluster", "redis-cluster://127.0.0.1:1", "connecting", 0),
                new PubSub.State(engine.state().engine(), engine.state().url(), "connecting", engine.state().queued()));
        }
        try (PubSub engine = EngineBuilder.of("redis://127.0.0.1:1").start()) {
            assertInstanceOf(RedisPubSub.class, engine);
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> EngineBuilder.of("redis-cluster://10.0.0.1:7000/0"));
        assertEquals("\"redis-cluster://10.0.0.1:7000/0\" is not a Redis Cluster URL (no /DB: a cluster has database 0 only)",
            e.getMessage());
    }

    @Test
    void aSeedOutsideAClusterIsSaidAndRetried() throws Exception {
        List<String> log = new CopyOnWriteArrayList<>();
        try (RedisServer plain = RedisServer.start();
             ClusterPubSub engine = ClusterPubSub.builder(ClusterUrl.SCHEME + "127.0.0.1:" + plain.port())
                 .backoff(50, 500).log(log::add).start()) {
            Inbox.await(WAIT, () -> !log.isEmpty(), "a line saying the cluster cannot be read");
            assertTrue(log.get(0).matches("nettyrack: pubsub: cannot reach Redis at redis-cluster://127\\.0\\.0\\.1:\\d+ "
                + "\\(no node gave the cluster's slots \\(127\\.0\\.0\\.1:\\d+: .*cluster support disabled.*\\)\\); retrying"),
                log.get(0));
            assertEquals("down", engine.state().link());
            engine.publish("c", Inbox.bytes("waits"));
            assertEquals(1, engine.queued());
        }
    }
}
