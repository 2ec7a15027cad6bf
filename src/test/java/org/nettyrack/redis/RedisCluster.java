package org.nettyrack.redis;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;

/**
 * A real Redis Cluster for a test: six {@link RedisServer#clusterNode}s on free 127.0.0.1
 * ports, made three masters with a replica each by {@code redis-cli --cluster create}, a node
 * failing over after 1 s of silence. Every wait is bounded.
 */
final class RedisCluster implements AutoCloseable {
    static final long NODE_TIMEOUT_MILLIS = 1_000;

    private final List<RedisServer> nodes = new ArrayList<>();
    private final Duration wait;

    private RedisCluster(Duration wait) {
        this.wait = wait;
    }

    static RedisCluster start(Duration wait) throws Exception {
        RedisCluster cluster = new RedisCluster(wait);
        try {
            for (int i = 0; i < 6; i++) {
                cluster.nodes.add(RedisServer.clusterNode(NODE_TIMEOUT_MILLIS));
            }
            List<String> command = new ArrayList<>(List.of(RedisServer.cli(), "--cluster", "create"));
            cluster.nodes.forEach(node -> command.add("127.0.0.1:" + node.port()));
            command.addAll(List.of("--cluster-replicas", "1", "--cluster-yes"));
            Process create = new ProcessBuilder(command).redirectErrorStream(true).start();
            byte[] output = create.getInputStream().readAllBytes();
            if (!create.waitFor(wait.toMillis(), TimeUnit.MILLISECONDS) || create.exitValue() != 0) {
                throw new IOException("redis-cli --cluster create failed: " + new String(output, StandardCharsets.UTF_8));
            }
            cluster.awaitHealthy();
            return cluster;
        } catch (Exception | Error e) {
            cluster.close();
            throw e;
        }
    }

    /** Seeds for the engine: two nodes, as a deployment would list a few. */
    String url() {
        return ClusterUrl.SCHEME + "127.0.0.1:" + nodes.get(0).port() + ",127.0.0.1:" + nodes.get(1).port();
    }

    /**
     * Until every node says the cluster is ok, knows the others and 3 masters, and every
     * replica is in sync with its master (one that never was cannot take over).
     */
    void awaitHealthy() throws InterruptedException {
        Inbox.await(wait, this::healthy, "the cluster to be ok on every node");
    }

    private boolean healthy() {
        for (RedisServer node : nodes) {
            try (Jedis jedis = jedis(node)) {
                String info = jedis.clusterInfo();
                if (!info.contains("cluster_state:ok") || !info.contains("cluster_known_nodes:6")
                    || !info.contains("cluster_size:3") || mastersSeenBy(jedis) != 3) {
                    return false;
                }
                String replication = jedis.info("replication");
                if (replication.contains("role:slave") && !replication.contains("master_link_status:up")) {
                    return false;
                }
            } catch (RuntimeException e) {
                return false;
            }
        }
        return true;
    }

    /** Until every node but the dead one says ok and the dead one's slots have a master again. */
    void awaitFailedOver(RedisServer dead) throws InterruptedException {
        Inbox.await(wait, () -> nodes.stream().filter(node -> node != dead).allMatch(node -> {
            try (Jedis jedis = jedis(node)) {
                return jedis.clusterInfo().contains("cluster_state:ok") && !ownersSeenBy(jedis).contains(dead.port());
            } catch (RuntimeException e) {
                return false;
            }
        }), "the cluster to fail over from " + dead.port());
    }

    /** The master that owns the slot now, as the first node that answers says. */
    RedisServer owner(int slot) {
        return byPort(layout().owner(slot).getPort());
    }

    RedisServer owner(String channel) {
        return owner(SlotMap.slot(channel));
    }

    /** The masters, in slot order. */
    List<RedisServer> masters() {
        return layout().masters().stream().map(master -> byPort(master.getPort())).toList();
    }

    /** The slots and their masters, as the first node that answers says. */
    SlotMap layout() {
        for (RedisServer node : nodes) {
            try (Jedis jedis = jedis(node)) {
                return SlotMap.parse(jedis.clusterSlots(), "127.0.0.1");
            } catch (RuntimeException e) {
                // ask the next
            }
        }
        throw new IllegalStateException("no node gives the cluster's slots");
    }

    /**
     * Moves an empty slot (pub/sub only: no keys) to another master, as {@code redis-cli
     * --cluster reshard} does: IMPORTING on the target, MIGRATING on the source, then NODE on
     * both and on every other master, so the move is known at once.
     */
    void moveSlot(int slot, RedisServer to) {
        RedisServer from = owner(slot);
        String target = id(to);
        try (Jedis source = jedis(from); Jedis destination = jedis(to)) {
            destination.clusterSetSlotImporting(slot, id(from));
            source.clusterSetSlotMigrating(slot, target);
            destination.clusterSetSlotNode(slot, target);
            source.clusterSetSlotNode(slot, target);
        }
        for (RedisServer master : masters()) {
            if (master != from && master != to) {
                try (Jedis jedis = jedis(master)) {
                    jedis.clusterSetSlotNode(slot, target);
                }
            }
        }
    }

    /** Subscribers of the channel on this node (PUBSUB SHARDNUMSUB). */
    long shardSubscribers(RedisServer node, String channel) {
        try (Jedis jedis = jedis(node)) {
            return jedis.pubsubShardNumSub(channel).getOrDefault(channel, 0L);
        }
    }

    static HostAndPort address(RedisServer node) {
        return new HostAndPort("127.0.0.1", node.port());
    }

    @Override
    public void close() throws Exception {
        for (RedisServer node : nodes) {
            node.close();
        }
    }

    private String id(RedisServer node) {
        try (Jedis jedis = jedis(node)) {
            return jedis.clusterMyId();
        }
    }

    private RedisServer byPort(int port) {
        return nodes.stream().filter(node -> node.port() == port).findFirst()
            .orElseThrow(() -> new IllegalStateException("no node on port " + port));
    }

    private static long mastersSeenBy(Jedis jedis) {
        return jedis.clusterNodes().lines().filter(line -> line.contains("master") && !line.contains("fail")).count();
    }

    private static List<Integer> ownersSeenBy(Jedis jedis) {
        List<Integer> ports = new ArrayList<>();
        for (Object item : jedis.clusterSlots()) {
            ports.add(((Long) ((List<?>) ((List<?>) item).get(2)).get(1)).intValue());
        }
        return ports;
    }

    private static Jedis jedis(RedisServer node) {
        return new Jedis("127.0.0.1", node.port(), 2_000);
    }
}
