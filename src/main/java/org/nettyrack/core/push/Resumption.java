package org.nettyrack.core.push;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;

/**
 * A subscription that resumes from a client's last id: subscribed before the history is read,
 * it holds the live messages that arrive meanwhile, then hands on the missed messages, then
 * the held ones the replay did not already carry (by id), then every message as it comes. So
 * the client gets what it missed and what follows in order, and nothing twice. The hand-over
 * runs where the subscriber's messages run (its connection's writer), so no live message can
 * overtake it.
 */
final class Resumption implements PubSub.Batched {
    private final PubSub.Subscriber target;
    private List<PubSub.Message> held = new ArrayList<>(); // guarded by this; null once started

    Resumption(PubSub.Subscriber target) {
        this.target = target;
    }

    @Override
    public void deliver(PubSub.Message message) {
        synchronized (this) {
            if (held != null) {
                held.add(message);
                return;
            }
        }
        target.deliver(message);
    }

    @Override
    public void gap(String channel, String head) {
        target.gap(channel, head);
    }

    @Override
    public Executor executor() {
        return target instanceof PubSub.Batched batched ? batched.executor() : null;
    }

    /** Hands on first (a reset's word, or nothing), then the replay's messages, then the held ones. */
    void start(Replay replay, Runnable first) {
        Runnable handOver = () -> {
            synchronized (this) {
                first.run();
                MessageId last = null;
                for (PubSub.Message missed : replay.missed()) {
                    target.deliver(missed);
                    last = missed.id();
                }
                for (PubSub.Message message : held) {
                    if (last == null || message.id() == null || message.id().after(last)) {
                        target.deliver(message);
                    }
                }
                held = null;
            }
        };
        Executor executor = executor();
        if (executor == null) {
            handOver.run();
        } else {
            try {
                executor.execute(handOver);
            } catch (java.util.concurrent.RejectedExecutionException stopping) {
                // the connection's thread is going, and the connection with it
            }
        }
    }
}
