package org.nettyrack.redis;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.nettyrack.core.push.LocalPubSub;
import org.nettyrack.core.push.MessageId;
import org.nettyrack.core.push.PubSub.Message;
import org.nettyrack.core.push.Replay;

/**
 * With a history, closes the gap a lost link leaves for the clients that stayed connected:
 * the subscriber thread remembers the last id it handed on per channel, and when it has
 * subscribed a channel again (Redis restarted, a failover) it reads what came after that id
 * from the history and hands it on before any live message, which it then takes only when
 * newer. A gap the history no longer covers is said in one line, and to the channel's
 * subscribers ({@link org.nettyrack.core.push.PubSub.Subscriber#gap}). Subscriber thread only.
 */
final class CatchUp {
    private final LocalPubSub local;
    private final HistoryReader history; // null: none kept, nothing to catch up from
    private final LinkStatus status;
    private final Map<String, MessageId> lastSeen = new ConcurrentHashMap<>();

    CatchUp(LocalPubSub local, HistoryReader history, LinkStatus status) {
        this.local = local;
        this.history = history;
        this.status = status;
    }

    /** A message from Redis: handed on unless a catch-up already did. */
    void deliver(Message message) {
        if (message.id() != null) {
            MessageId last = lastSeen.get(message.channel());
            if (last != null && last.sameEpoch(message.id()) && !message.id().after(last)) {
                return;
            }
            if (history != null) {
                lastSeen.put(message.channel(), message.id());
            }
        }
        local.deliver(message);
    }

    /** The channel is subscribed (again): what was missed since the last id, if any. */
    void subscribed(String channel) {
        MessageId last = history == null ? null : lastSeen.get(channel);
        if (last == null) {
            return;
        }
        Replay replay;
        try {
            replay = history.resume(channel, last.toString());
            MessageId from = restartedFrom(replay, last);
            if (from != null) {
                replay = history.resume(channel, from.toString());
            }
        } catch (RuntimeException e) {
            status.log("cannot read the history of " + channel + " after reconnecting (" + e.getMessage()
                + "); what was published meanwhile is not delivered");
            return;
        }
        if (replay.outcome() == Replay.Outcome.RESET) {
            status.log("messages on " + channel + " published while the link was down are no longer in the history; "
                + "its subscribers here are told (an event stream: a reset event)");
            local.gap(channel, replay.head());
            return;
        }
        for (Message missed : replay.missed()) {
            deliver(missed);
        }
    }

    /**
     * Where to resume when the history restarted behind this process, else null. A failover's
     * new master may lack the newest messages the old one had before its replica did (the same
     * epoch, but a newest id older than the last one handed on here: resume from that newest
     * id), or everything, the epoch with it (a new epoch: resume from the moment of the last
     * one handed on here). Their publishers send the lost messages again, under new ids, so
     * nothing is missed (some may come twice). A client resuming from an id it cannot have
     * been given is still told to start over ({@link Replay#resume}).
     */
    private static MessageId restartedFrom(Replay replay, MessageId last) {
        if (replay.outcome() != Replay.Outcome.RESET || replay.head() == null) {
            return null;
        }
        MessageId head = MessageId.parse(replay.head());
        if (head == null) {
            return null;
        }
        if (!head.sameEpoch(last)) {
            return new MessageId(head.epoch(), last.millis(), 0);
        }
        return last.after(head) ? head : null;
    }

    /** Unsubscribed in Redis: forgotten once no subscriber is left here (a slot that moved keeps it). */
    void unsubscribed(String channel) {
        if (local.subscribers(channel) == 0) {
            lastSeen.remove(channel);
        }
    }
}
