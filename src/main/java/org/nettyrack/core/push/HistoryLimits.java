package org.nettyrack.core.push;

/**
 * How much history a pub/sub engine keeps: per channel the last {@code messages}, each at most
 * {@code ttlMillis} after the channel's newest (a quiet channel is forgotten after that long);
 * an in-memory history keeps at most {@code channels} channels, forgetting the one quiet the
 * longest. messages 0: no history.
 */
public record HistoryLimits(int messages, long ttlMillis, int channels) {
    public static final HistoryLimits NONE = new HistoryLimits(0, 0, 0);

    public HistoryLimits {
        if (messages < 0) {
            throw new IllegalArgumentException("push history must be 0 (none) or more messages, got " + messages);
        }
        if (messages > 0 && ttlMillis < 1) {
            throw new IllegalArgumentException("push history time must be at least 1 ms, got " + ttlMillis);
        }
        if (messages > 0 && channels < 1) {
            throw new IllegalArgumentException("push history channels must be at least 1, got " + channels);
        }
    }

    public boolean on() {
        return messages > 0;
    }
}
