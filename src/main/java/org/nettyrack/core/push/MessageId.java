package org.nettyrack.core.push;

/**
 * A kept message's id, as a client sees it ({@code id:} of an SSE event, the third argument
 * of a subscription's block): {@code EPOCH-MILLIS-N}. Ids come from one clock per history
 * (one Redis, or one process): MILLIS is when the message was kept, N counts messages kept in
 * the same millisecond, so ids order every message of every channel of that history. EPOCH
 * names the history itself: it changes when the history starts over (a process restarted
 * with an in-memory history, a Redis emptied), so an id from before can be told apart.
 */
public record MessageId(String epoch, long millis, long n) implements Comparable<MessageId> {
    public MessageId {
        if (!isEpoch(epoch) || millis < 0 || n < 0) {
            throw new IllegalArgumentException("not a message id: " + epoch + "-" + millis + "-" + n);
        }
    }

    /** The id, or null when text is not shaped like one (an id that is not ours). */
    public static MessageId parse(String text) {
        if (text == null || text.length() > 64) {
            return null;
        }
        int second = text.lastIndexOf('-');
        int first = second < 0 ? -1 : text.lastIndexOf('-', second - 1);
        if (first < 1) {
            return null;
        }
        String epoch = text.substring(0, first);
        if (!digits(text, first + 1, second) || !digits(text, second + 1, text.length())) {
            return null;
        }
        try {
            long millis = Long.parseLong(text, first + 1, second, 10);
            long n = Long.parseLong(text, second + 1, text.length(), 10);
            return isEpoch(epoch) && millis >= 0 && n >= 0 ? new MessageId(epoch, millis, n) : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static boolean digits(String text, int from, int to) {
        if (from >= to || to - from > 19) {
            return false;
        }
        for (int i = from; i < to; i++) {
            if (text.charAt(i) < '0' || text.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }

    /** Letters and digits, 1 to 16 of them. */
    public static boolean isEpoch(String text) {
        if (text == null || text.isEmpty() || text.length() > 16) {
            return false;
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9')) {
                return false;
            }
        }
        return true;
    }

    /** Order within one epoch; ids of two epochs are not comparable (compare only after {@link #sameEpoch}). */
    @Override
    public int compareTo(MessageId other) {
        int byMillis = Long.compare(millis, other.millis);
        return byMillis != 0 ? byMillis : Long.compare(n, other.n);
    }

    public boolean sameEpoch(MessageId other) {
        return epoch.equals(other.epoch);
    }

    public boolean after(MessageId other) {
        return compareTo(other) > 0;
    }

    @Override
    public String toString() {
        return epoch + "-" + millis + "-" + n;
    }
}
