package org.nettyrack.core.push;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;

/**
 * A subscription that resumes from a client's last id: subscribed before the history is read,
 * it holds the live messages that arrive meanwhile, then hands on the missed messages, then
 * the held ones the replay did not already carry (by id), then every message as it comes. So
 * the client gets what it missed and what follows in order, and nothing twice (see {@link
 * #start} for how the writes are ordered).
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

    /**
     * Hands on first (a reset's word, or nothing) and the replay's messages now, on the
     * subscribing thread, so they are the connection's next writes (before anything the app
     * writes or a close it asks for after subscribing); then, on the subscriber's executor,
     * the held messages the replay did not carry. A live message reaches that executor only
     * as a task queued behind the replay's writes, and is held until this last step, so none
     * overtakes the replay.
     */
    void start(Replay replay, Runnable first) {
        MessageId last;
        synchronized (this) {
            first.run();
            last = null;
            for (PubSub.Message missed : replay.missed()) {
                target.deliver(missed);
                last = missed.id();
            }
        }
        MessageId replayed = last;
        Runnable release = () -> {
            synchronized (this) {
                for (PubSub.Message message : held) {
                    if (replayed == null || message.id() == null || message.id().after(replayed)) {
                        target.deliver(message);
                    }
                }
                held = null;
            }
        };
        Executor executor = executor();
        if (executor == null) {
            release.run();
        } else {
            try {
                executor.execute(release);
            } catch (java.util.concurrent.RejectedExecutionException stopping) {
                // the connection's thread is going, and the connection with it
            }
        }
    }
}
