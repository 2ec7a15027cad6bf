package org.nettyrack.redis;

import java.util.List;
import java.util.concurrent.TimeUnit;
import redis.clients.jedis.Connection;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * The writer thread, the only one that sends commands: it takes messages off the
 * {@link PublishQueue} and PUBLISHes them in pipelined batches on its own connection, syncs
 * {@link Subscriptions} and pings the subscriber connection. Publishing threads never wait
 * for it. A batch that fails on an old connection is tried once more on a fresh one (Redis
 * may have restarted since); when Redis is away, messages wait in the queue and the writer
 * reconnects with {@link Backoff}. On close it sends what is queued if it is connected.
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
    private Connection connection;
    private long retryAt;
    private long pingAt;
    private boolean rejectedLogged;

    /** history: where messages are kept as they are published, or null. */
    Writer(Connector connector, PublishQueue queue, Subscriptions subscriptions, LinkStatus status, Backoff backoff,
           long pingMillis, RedisHistory history) {
        this.connector = connector;
        this.queue = queue;
        this.subscriptions = subscriptions;
        this.status = status;
        this.backoff = backoff;
        this.pingNanos = TimeUnit.MILLISECONDS.toNanos(pingMillis);
        this.history = history;
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
            try {
                send(batch);
            } catch (RuntimeException e) {
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

    private void publish(List<PublishQueue.Outgoing> batch) {
        try {
            send(batch);
        } catch (RuntimeException stale) {
            disconnect();
            connect();
            if (connection != null) {
                try {
                    send(batch);
                } catch (RuntimeException e) {
                    disconnect();
                    failed(e); // the batch is lost; later messages wait for the next connection
                }
            }
        }
    }

    private void send(List<PublishQueue.Outgoing> batch) {
        Pipeline pipeline = new Pipeline(connection, false);
        for (PublishQueue.Outgoing message : batch) {
            if (history == null) {
                pipeline.publish(message.channel(), message.data());
            } else {
                pipeline.sendCommand(Protocol.Command.EVAL, history.keep(message.channel(), message.data()));
            }
        }
        for (Object reply : pipeline.syncAndReturnAll()) {
            if (reply instanceof JedisDataException refused) {
                if (!rejectedLogged) {
                    status.log("Redis refused a " + (history == null ? "PUBLISH" : "message for the history")
                        + " (" + refused.getMessage() + ")");
                    rejectedLogged = true;
                }
                return;
            }
        }
        rejectedLogged = false;
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
