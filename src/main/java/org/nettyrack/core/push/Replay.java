package org.nettyrack.core.push;

import java.util.List;

/**
 * What a subscription that resumes from a client's last id gets: the messages it missed, or
 * word that they cannot all be had. The rule is here once for every history (in memory, Redis
 * Streams); a history only says what it holds ({@link View}).
 */
public record Replay(Outcome outcome, List<PubSub.Message> missed, String head) {
    /** The three ways a subscription can begin. */
    public enum Outcome {
        /** No position was given, or no history is kept: messages from now on. */
        LIVE,
        /** Every message after the position is in {@link #missed} (perhaps none), oldest first. */
        RESUMED,
        /**
         * The position is older than the history (messages after it were dropped), or not this
         * history's (another epoch, a future id, not an id): the client must start over; {@link
         * #head} is the newest id, from which it can resume next time.
         */
        RESET
    }

    public static final Replay LIVE = new Replay(Outcome.LIVE, List.of(), null);

    public Replay {
        missed = List.copyOf(missed);
    }

    /**
     * What a history holds for one channel when asked: its epoch; the newest id it gave any
     * channel (null before the first); whether it keeps anything for this channel; the newest
     * id it dropped from this channel (null: none); the kept messages after the position,
     * oldest first; and the time from which a channel it keeps nothing for certainly had no
     * message (messages are kept at least that long after the last one).
     */
    public record View(String epoch, MessageId head, boolean kept, MessageId lastDropped,
                       List<PubSub.Message> after, long quietSinceMillis) {
    }

    /** The rule: what a client at position (its last id, as it sent it) gets from view. */
    public static Replay resume(MessageId position, View view) {
        String head = view.head() == null ? null : view.head().toString();
        if (position == null || !position.epoch().equals(view.epoch()) || view.head() == null
                || position.after(view.head())) {
            return reset(head);
        }
        if (!view.kept()) {
            return position.millis() >= view.quietSinceMillis() ? new Replay(Outcome.RESUMED, List.of(), head) : reset(head);
        }
        if (view.lastDropped() != null && view.lastDropped().after(position)) {
            return reset(head);
        }
        return new Replay(Outcome.RESUMED, view.after(), head);
    }

    static Replay reset(String head) {
        return new Replay(Outcome.RESET, List.of(), head);
    }
}
