package org.nettyrack.redis;

import java.util.concurrent.ArrayBlockingQueue;
import org.nettyrack.core.push.MessageId;
import org.nettyrack.core.push.Replay;
import redis.clients.jedis.Connection;

/**
 * Reads a {@link RedisHistory} for subscribers resuming, on worker threads, over a few
 * connections of its own (the writer's and the subscriber's are each one thread's): a
 * connection is taken, or opened when none is idle, and given back after the read; one that
 * failed is closed. At most {@link #IDLE} stay open.
 */
final class HistoryReader implements AutoCloseable {
    static final int IDLE = 4;

    private final Connector connector;
    private final RedisHistory history;
    private final ArrayBlockingQueue<Connection> idle = new ArrayBlockingQueue<>(IDLE);
    private volatile boolean closed;

    HistoryReader(Connector connector, RedisHistory history) {
        this.connector = connector;
        this.history = history;
    }

    /** Where a client at position resumes; a JedisException when Redis cannot be asked. */
    Replay resume(String channel, String position) {
        MessageId id = MessageId.parse(position);
        Connection connection = idle.poll();
        if (connection == null) {
            connection = connector.connect();
        }
        try {
            Replay replay = Replay.resume(id, history.view(connection, channel, id));
            if (closed || !idle.offer(connection)) {
                connection.close();
            }
            return replay;
        } catch (RuntimeException e) {
            connection.close();
            throw e;
        }
    }

    @Override
    public void close() {
        closed = true;
        Connection connection;
        while ((connection = idle.poll()) != null) {
            connection.close();
        }
    }
}
