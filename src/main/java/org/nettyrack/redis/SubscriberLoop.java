package org.nettyrack.redis;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.nettyrack.core.push.LocalPubSub;
import redis.clients.jedis.BinaryJedisPubSub;
import redis.clients.jedis.Connection;

/**
 * The subscriber thread: holds one connection in Jedis' blocking subscribe loop and hands
 * every message Redis sends (ours included: local subscribers get a message when Redis echoes
 * it, so every process sees one order) to the {@link LocalPubSub}. The loop needs a channel
 * at all times, so it also subscribes to a control channel of its own. When the connection
 * breaks it reconnects with {@link Backoff}, subscribing again to every channel with local
 * subscribers; {@link LinkStatus} logs the loss and the return. With a history, {@link
 * CatchUp} hands on what was published while the link was down.
 */
final class SubscriberLoop implements Runnable {
    private final Connector connector;
    private final LocalPubSub local;
    private final CatchUp catchUp;
    private final Subscriptions subscriptions;
    private final LiveChannels live;
    private final PublishQueue writerAlarm;
    private final LinkStatus status;
    private final Backoff backoff;
    private final byte[] control;
    private final CountDownLatch stopping = new CountDownLatch(1);
    private volatile Connection current;

    SubscriberLoop(Connector connector, LocalPubSub local, CatchUp catchUp, Subscriptions subscriptions, LiveChannels live,
                   PublishQueue writerAlarm, LinkStatus status, Backoff backoff, String controlChannel) {
        this.connector = connector;
        this.local = local;
        this.catchUp = catchUp;
        this.subscriptions = subscriptions;
        this.live = live;
        this.writerAlarm = writerAlarm;
        this.status = status;
        this.backoff = backoff;
        this.control = Subscriptions.bytes(controlChannel);
    }

    @Override
    public void run() {
        while (!stopped()) {
            Listener listener = null;
            try (Connection connection = connector.connect()) {
                current = connection;
                if (stopped()) {
                    break; // close() may have missed this connection
                }
                listener = new Listener(Set.copyOf(local.channels()));
                listener.proceed(connection, listener.channels());
            } catch (RuntimeException e) {
                if (!stopped()) {
                    status.lost(e);
                }
            } finally {
                current = null;
                if (listener != null) {
                    subscriptions.detach(listener.session);
                }
                live.lost();
            }
            pause(backoff.next());
        }
    }

    /** Breaks the blocking read and ends the loop; the thread then exits promptly. */
    void stop() {
        stopping.countDown();
        Connection connection = current;
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

    private void pause(long millis) {
        try {
            stopping.await(millis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            stopping.countDown();
        }
    }

    /** Jedis' callbacks, on this thread. */
    private final class Listener extends BinaryJedisPubSub {
        private final Subscriptions.Session session;

        Listener(Set<String> channels) {
            this.session = new Subscriptions.Session(this, channels);
        }

        byte[][] channels() {
            byte[][] all = new byte[session.channels().size() + 1][];
            all[0] = control;
            int i = 1;
            for (String channel : session.channels()) {
                all[i++] = Subscriptions.bytes(channel);
            }
            return all;
        }

        @Override
        public void onSubscribe(byte[] channel, int subscribedChannels) {
            if (Arrays.equals(channel, control)) { // the first reply: the connection is ready
                subscriptions.attach(session);
                writerAlarm.wake();
                backoff.reset();
                status.up();
            } else {
                String name = new String(channel, StandardCharsets.UTF_8);
                catchUp.subscribed(name); // before live says so, and before the next message is read
                live.confirmed(name);
            }
        }

        @Override
        public void onUnsubscribe(byte[] channel, int subscribedChannels) {
            String name = new String(channel, StandardCharsets.UTF_8);
            catchUp.unsubscribed(name);
            live.unsubscribed(name);
        }

        @Override
        public void onMessage(byte[] channel, byte[] message) {
            if (!Arrays.equals(channel, control)) {
                catchUp.deliver(Envelope.open(new String(channel, StandardCharsets.UTF_8), message));
            }
        }
    }
}
