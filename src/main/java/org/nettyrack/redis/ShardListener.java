package org.nettyrack.redis;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import redis.clients.jedis.Connection;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisRedirectionException;

/**
 * One Cluster master's subscriber connection, read on a thread of its own: sharded messages
 * go to the {@link org.nettyrack.core.push.LocalPubSub} through {@link CatchUp} (ours too, as
 * Redis echoes them, so every process sees one order; with a history, what a lost connection
 * missed first); SSUBSCRIBE replies confirm a channel ({@link LiveChannels}); a SUNSUBSCRIBE this
 * engine did not ask for, or a MOVED refusal, means the channel's slot has another master now,
 * and the {@link ShardWriter} is told ({@code relook}) to read the layout again. Commands go
 * out from the writer thread only ({@link #send}). One connection per listener: when it breaks
 * the thread ends, and the writer starts a new listener after its next look at the layout.
 */
final class ShardListener implements Runnable {
    private static final byte[] SMESSAGE = bytes("smessage");
    private static final byte[] SSUBSCRIBE = bytes("ssubscribe");
    private static final byte[] SUNSUBSCRIBE = bytes("sunsubscribe");

    private final HostAndPort node;
    private final Connector connector;
    private final CatchUp catchUp;
    private final ShardSubscriptions subscriptions;
    private final LiveChannels live;
    private final LinkStatus status;
    private final PublishQueue writerAlarm;
    private final Runnable relook;
    private final CountDownLatch stopping = new CountDownLatch(1);
    private volatile Connector.NodeConnection current;
    private volatile boolean over;
    private boolean refusalLogged;

    /** relook: has the writer read the layout again (a slot moved, the connection broke). */
    ShardListener(HostAndPort node, Connector connector, CatchUp catchUp, ShardSubscriptions subscriptions,
                  LiveChannels live, LinkStatus status, PublishQueue writerAlarm, Runnable relook) {
        this.node = node;
        this.connector = connector;
        this.catchUp = catchUp;
        this.subscriptions = subscriptions;
        this.live = live;
        this.status = status;
        this.writerAlarm = writerAlarm;
        this.relook = relook;
    }

    HostAndPort node() {
        return node;
    }

    /** Whether the connection is gone (or never came); a new listener takes over. */
    boolean isOver() {
        return over;
    }

    @Override
    public void run() {
        try (Connector.NodeConnection connection = connector.connect(node)) {
            current = connection;
            if (!stopped()) { // stop() may have missed this connection
                connection.setTimeoutInfinite(); // bounded by the subscriber timeout, which the writer's PINGs keep from running out
                subscriptions.attach(this);
                writerAlarm.wake(); // the writer subscribes the channels this master owns
                read(connection);
            }
        } catch (RuntimeException e) {
            if (!stopped()) {
                status.lost(new JedisConnectionException(node + ": " + LinkStatus.reason(e)));
            }
        } finally {
            current = null;
            subscriptions.detach(this).forEach(live::unsubscribed);
            over = true;
            if (!stopped()) {
                relook.run();
            }
        }
    }

    /** Writer thread: sends a command on this connection; a broken one is noticed by the reading thread. */
    void send(Protocol.Command command, byte[]... args) {
        Connector.NodeConnection connection = current;
        if (connection == null) {
            return;
        }
        try {
            connection.send(command, args);
        } catch (RuntimeException e) {
            // the reading thread sees the same breakage and ends the listener
        }
    }

    /** Breaks the blocking read; the thread then ends promptly. */
    void stop() {
        stopping.countDown();
        Connector.NodeConnection connection = current;
        if (connection != null) {
            try {
                connection.forceDisconnect();
            } catch (IOException | RuntimeException e) {
                // closing anyway
            }
        }
    }

    private boolean stopped() {
        return stopping.getCount() == 0;
    }

    private void read(Connection connection) {
        while (!stopped()) {
            Object reply;
            try {
                reply = connection.getUnflushedObject();
            } catch (JedisRedirectionException moved) { // an SSUBSCRIBE for a slot this master no longer owns
                subscriptions.refused(this, moved.getSlot());
                relook.run();
                continue;
            } catch (JedisConnectionException e) {
                throw e;
            } catch (JedisDataException refused) {
                if (!refusalLogged) {
                    status.log(node + " refused a subscription (" + refused.getMessage() + ")");
                    refusalLogged = true;
                }
                continue;
            }
            handle(reply);
        }
    }

    /** A pushed message, a reply to SSUBSCRIBE/SUNSUBSCRIBE, or to PING (which needs nothing). */
    private void handle(Object reply) {
        if (!(reply instanceof List<?> parts) || parts.size() < 3 || !(parts.get(0) instanceof byte[] kind)
            || !(parts.get(1) instanceof byte[] channelBytes)) {
            return;
        }
        String channel = new String(channelBytes, StandardCharsets.UTF_8);
        if (Arrays.equals(kind, SMESSAGE) && parts.get(2) instanceof byte[] data) {
            catchUp.deliver(Envelope.open(channel, data));
        } else if (Arrays.equals(kind, SSUBSCRIBE)) {
            catchUp.subscribed(channel); // before live says so, and before the next message is read
            live.confirmed(channel);
        } else if (Arrays.equals(kind, SUNSUBSCRIBE)) {
            if (subscriptions.dropped(this, channel)) {
                live.moved(channel);
                relook.run();
            } else {
                catchUp.unsubscribed(channel);
                live.unsubscribed(channel);
            }
        }
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    @Override
    public String toString() {
        return "ShardListener(" + node + ")";
    }
}
