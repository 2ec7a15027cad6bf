package org.nettyrack.redis;

import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import org.nettyrack.core.push.MessageId;
import org.nettyrack.core.push.Replay;
import redis.clients.jedis.Connection;
import redis.clients.jedis.exceptions.JedisMovedDataException;

/**
 * Reads a {@link RedisHistory} for subscribers resuming, on worker threads (and for {@link
 * CatchUp}, on subscriber threads), over connections of its own: the writer's and the
 * subscriber's are each one thread's. A channel's history is read where its {@link Route}
 * says (the master; in a Cluster, the master of the channel's slot): a connection to it is
 * taken, or opened when none is idle, and given back after the read; one that failed is
 * closed. At most {@link #IDLE} stay open per node.
 */
final class HistoryReader implements AutoCloseable {
    static final int IDLE = 4;

    /** Where a channel's history is: a node (any key naming it) and how to connect there. */
    interface Route {
        /** The node holding the channel's history; a JedisException when it is not known now. */
        Object node(String channel);

        Connection open(Object node);
    }

    private final Route route;
    private final RedisHistory history;
    private final LinkStatus status;
    private final Map<Object, ArrayBlockingQueue<Connection>> idle = new ConcurrentHashMap<>();
    private volatile boolean closed;

    HistoryReader(Route route, RedisHistory history, LinkStatus status) {
        this.route = route;
        this.history = history;
        this.status = status;
    }

    /** One Redis (or its Sentinel-watched master): every history on the connector's master. */
    static Route master(Connector connector) {
        return new Route() {
            @Override
            public Object node(String channel) {
                return "master";
            }

            @Override
            public Connection open(Object node) {
                return connector.connect();
            }
        };
    }

    /**
     * The engines' {@link org.nettyrack.core.push.PubSub#resume}: a Redis that cannot be asked
     * is a {@link Replay.Outcome#RESET}, said in one line, since what the client missed is not known.
     */
    Replay replay(String channel, String position) {
        try {
            return resume(channel, position);
        } catch (RuntimeException e) {
            status.log("cannot read the history of " + channel + " (" + e.getMessage() + "); the client is told to start over");
            return new Replay(Replay.Outcome.RESET, java.util.List.of(), null);
        }
    }

    /**
     * Where a client at position resumes; a JedisException when Redis cannot be asked. A node
     * that answers MOVED (a Cluster's slot elsewhere than thought) is left for the one it names, once.
     */
    Replay resume(String channel, String position) {
        MessageId id = MessageId.parse(position);
        Object node = route.node(channel);
        try {
            return read(node, channel, id);
        } catch (JedisMovedDataException moved) {
            return read(moved.getTargetNode(), channel, id);
        }
    }

    private Replay read(Object node, String channel, MessageId id) {
        ArrayBlockingQueue<Connection> pool = idle.computeIfAbsent(node, n -> new ArrayBlockingQueue<>(IDLE));
        Connection connection = pool.poll();
        if (connection == null) {
            connection = route.open(node);
        }
        Replay replay;
        try {
            replay = Replay.resume(id, history.view(connection, channel, id));
        } catch (JedisMovedDataException moved) {
            offer(pool, connection); // the connection is fine; the slot is elsewhere
            throw moved;
        } catch (RuntimeException e) {
            connection.close();
            throw e;
        }
        offer(pool, connection);
        return replay;
    }

    private void offer(ArrayBlockingQueue<Connection> pool, Connection connection) {
        if (closed || !pool.offer(connection)) {
            connection.close();
        }
    }

    @Override
    public void close() {
        closed = true;
        for (ArrayBlockingQueue<Connection> pool : idle.values()) {
            Connection connection;
            while ((connection = pool.poll()) != null) {
                connection.close();
            }
        }
    }
}
