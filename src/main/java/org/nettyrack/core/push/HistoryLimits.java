package org.nettyrack.core.push;

/**
 * How much history a pub/sub engine keeps: per channel the last {@code messages}, each at most
 * {@code ttlMillis} after the channel's newest (a quiet channel is forgotten after that long);
 * an in-memory history keeps at most {@code channels} channels, forgetting the one quiet the
 * longest. messages 0: no history.
 */
public record HistoryLimits(int messages, long ttlMillis, int channels) {
    public static final HistoryLimits NONE = new HistoryLimits(0, 0, 0);
    /** The most messages a channel may keep. */
    public static final int MAX_MESSAGES = 1_000_000;
    /** The most channels an in-memory history may keep. */
    public static final int MAX_CHANNELS = 10_000_000;

    /** From settings as given (any whole numbers): an IllegalArgumentException names one out of range. */
    public static HistoryLimits of(long messages, long ttlMillis, long channels) {
        if (messages > MAX_MESSAGES) {
            throw new IllegalArgumentException("push history keeps at most " + MAX_MESSAGES + " messages a channel, got " + messages);
        }
        if (channels > MAX_CHANNELS) {
            throw new IllegalArgumentException("push history keeps at most " + MAX_CHANNELS + " channels, got " + channels);
        }
        return new HistoryLimits((int) messages, ttlMillis, (int) channels);
    }

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
