package org.nettyrack.redis;

import java.util.List;
import java.util.concurrent.TimeUnit;
import redis.clients.jedis.Connection;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * The writer thread, the only one that sends commands: it takes messages off the
 * {@link PublishQueue} and PUBLISHes them (kept first, with a {@link RedisHistory}) in
 * pipelined batches on its own connection, syncs {@link Subscriptions} and pings the
 * subscriber connection. Publishing threads never wait for it. A batch cut short on an old
 * connection is tried once more on a fresh one (Redis may have restarted or failed over since);
 * what Redis did not confirm then goes back to the front of the queue. While Redis is away
 * messages wait in the queue and the writer reconnects with {@link Backoff}. On close it sends
 * what is queued if it is connected.
 */
final class Writer implements Runnable {
    static final int BATCH = 256;

    private final Connector connector;
    private final PublishQueue queue;
    private final Subscriptions subscriptions;
    private final LinkStatus status;
    private final Backoff backoff;
    private final long pingNanos;
    private final RedisHistory history; // null: none kept
    private final ReplicaWait replicas; // null: batches do not wait for a replica
    private Connection connection;
    private long retryAt;
    private long pingAt;
    private boolean rejectedLogged;
    private RuntimeException broken; // why the last send stopped short

    /**
     * history: where messages are kept as they are published, or null; replicas: whether a
     * batch waits for a replica to have it, or null.
     */
    Writer(Connector connector, PublishQueue queue, Subscriptions subscriptions, LinkStatus status, Backoff backoff,
           long pingMillis, RedisHistory history, ReplicaWait replicas) {
        this.connector = connector;
        this.queue = queue;
        this.subscriptions = subscriptions;
        this.status = status;
        this.backoff = backoff;
        this.pingNanos = TimeUnit.MILLISECONDS.toNanos(pingMillis);
        this.history = history;
        this.replicas = replicas;
    }

    @Override
    public void run() {
        retryAt = System.nanoTime();
        pingAt = retryAt + pingNanos;
        try {
            while (!queue.isClosed()) {
                step();
            }
            flush();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            disconnect();
        }
    }

    /** On close: what is queued, if connected, until a batch fails. */
    private void flush() {
        List<PublishQueue.Outgoing> batch;
        while (connection != null && !(batch = queue.take(BATCH)).isEmpty()) {
            if (!send(batch).isEmpty()) {
                disconnect();
            }
        }
    }

    private void step() throws InterruptedException {
        subscriptions.sync();
        long now = System.nanoTime();
        if (now - pingAt >= 0) {
            subscriptions.ping();
            pingAt = now + pingNanos;
        }
        if (connection == null && now - retryAt >= 0) {
            connect();
        }
        if (connection != null) {
            List<PublishQueue.Outgoing> batch = queue.take(BATCH);
            if (!batch.isEmpty()) {
                publish(batch);
                return;
            }
        }
        long wake = connection == null ? Math.min(retryAt, pingAt) : pingAt;
        queue.await(connection != null, wake - System.nanoTime());
    }

    /**
     * Sends the batch. One cut short by a broken connection (or by READONLY: the master was
     * demoted) is tried once more on a fresh connection, since Redis may have restarted or
     * failed over; what is still unconfirmed goes back to the front of the queue for the next
     * connection. So a message reaches Redis at least once: one whose reply was lost with the
     * connection may go twice.
     */
    private void publish(List<PublishQueue.Outgoing> batch) {
        List<PublishQueue.Outgoing> unsent = send(batch);
        if (unsent.isEmpty()) {
            return;
        }
        disconnect();
        connect();
        if (connection != null) {
            unsent = send(unsent);
            if (unsent.isEmpty()) {
                return;
            }
            disconnect();
            failed(broken);
        }
        queue.requeue(unsent);
    }

    /**
     * Pipelines the batch and reads the replies one by one; returns the messages Redis did not
     * confirm because the connection broke (none when all went). A message Redis refused (an
     * error reply) counts as gone, with one line until one is taken again. With {@link
     * ReplicaWait}, a WAIT follows the batch, and none of it is confirmed until WAIT answers.
     */
    private List<PublishQueue.Outgoing> send(List<PublishQueue.Outgoing> batch) {
        int confirmed = 0;
        boolean waits = replicas != null && replicas.due();
        try {
            for (PublishQueue.Outgoing message : batch) {
                if (history == null) {
                    connection.sendCommand(Protocol.Command.PUBLISH, message.channel(), message.data());
                } else {
                    connection.sendCommand(Protocol.Command.EVAL, history.keep(message));
                }
            }
            if (waits) {
                connection.sendCommand(Protocol.Command.WAIT, replicas.arguments());
            }
            for (; confirmed < batch.size(); confirmed++) {
                try {
                    connection.getOne();
                    rejectedLogged = false;
                } catch (JedisConnectionException e) {
                    throw e;
                } catch (JedisDataException refused) {
                    if (refused.getMessage() != null && refused.getMessage().startsWith("READONLY")) {
                        throw new JedisConnectionException(refused.getMessage(), refused);
                    }
                    refusedOne(refused);
                }
            }
            if (waits) {
                confirmed = 0; // until a replica has them
                awaitReplica();
            }
            return List.of();
        } catch (RuntimeException e) {
            broken = e;
            return batch.subList(waits ? 0 : confirmed, batch.size());
        }
    }

    /** Reads WAIT's answer; while a connected replica has not acknowledged, asks again. */
    private void awaitReplica() {
        long acknowledged = (Long) connection.getOne();
        while (replicas.answered(acknowledged, acknowledged > 0 ? 0 : connectedReplicas()) == ReplicaWait.Next.ASK_AGAIN) {
            connection.sendCommand(Protocol.Command.WAIT, replicas.arguments());
            acknowledged = (Long) connection.getOne();
        }
    }

    /** How many replicas the master has connected (ROLE's third element lists them). */
    private int connectedReplicas() {
        connection.sendCommand(Protocol.Command.ROLE);
        Object role = connection.getOne();
        return role instanceof List<?> parts && parts.size() > 2 && parts.get(2) instanceof List<?> list ? list.size() : 0;
    }

    private void refusedOne(JedisDataException refused) {
        if (!rejectedLogged) {
            status.log("Redis refused a " + (history == null ? "PUBLISH" : "message for the history")
                + " (" + refused.getMessage() + ")");
            rejectedLogged = true;
        }
    }

    private void connect() {
        try {
            connection = connector.connect();
            backoff.reset();
            status.up();
        } catch (RuntimeException e) {
            failed(e);
        }
    }

    private void failed(RuntimeException e) {
        status.lost(e);
        retryAt = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(backoff.next());
    }

    private void disconnect() {
        if (connection != null) {
            try {
                connection.close();
            } catch (RuntimeException e) {
                // already broken
            }
            connection = null;
        }
    }
}
