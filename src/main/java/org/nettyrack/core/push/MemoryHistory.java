package org.nettyrack.core.push;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * The history of an in-process engine ({@link LocalPubSub}): each channel's last messages, in
 * this process's memory, within {@link HistoryLimits}. One lock orders everything: a message
 * gets its id, is kept and is handed to the subscribers under it, so every subscriber sees a
 * channel's messages in id order. Its epoch is drawn when it is made, so ids from before a
 * restart are not taken for its own.
 */
public final class MemoryHistory {
    private final HistoryLimits limits;
    private final LongSupplier clock;
    private final String epoch;
    /** Channels by their newest message, the quietest first. */
    private final LinkedHashMap<String, Channel> channels = new LinkedHashMap<>(16, 0.75f, false);
    private MessageId head;
    /** The newest message of any channel forgotten to stay within the channel limit (0: none). */
    private long forgottenUpTo;

    /** One channel's kept messages, oldest first, and the newest it dropped. */
    private static final class Channel {
        final ArrayDeque<PubSub.Message> kept = new ArrayDeque<>();
        MessageId lastDropped;

        long newestMillis() {
            return kept.isEmpty() ? 0 : kept.peekLast().id().millis();
        }
    }

    public MemoryHistory(HistoryLimits limits) {
        this(limits, System::currentTimeMillis, newEpoch());
    }

    MemoryHistory(HistoryLimits limits, LongSupplier clock, String epoch) {
        if (!limits.on()) {
            throw new IllegalArgumentException("a history needs room for 1 message at least");
        }
        this.limits = limits;
        this.clock = clock;
        this.epoch = epoch;
    }

    /** 8 random base-36 digits. */
    public static String newEpoch() {
        StringBuilder epoch = new StringBuilder(8);
        for (int i = 0; i < 8; i++) {
            epoch.append(Character.forDigit(ThreadLocalRandom.current().nextInt(36), 36));
        }
        return epoch.toString();
    }

    /** Gives the message its id, keeps it, and hands it to deliver, in that order, under the lock. */
    public synchronized void keep(PubSub.Message message, Consumer<PubSub.Message> deliver) {
        long now = clock.getAsLong();
        MessageId id = next(now);
        PubSub.Message kept = message.withId(id);
        Channel channel = channels.remove(message.channel()); // re-inserted last: the newest
        if (channel == null) {
            channel = new Channel();
        }
        channel.kept.addLast(kept);
        while (channel.kept.size() > limits.messages()) {
            channel.lastDropped = channel.kept.pollFirst().id();
        }
        dropOld(channel, now);
        channels.put(message.channel(), channel);
        forgetQuiet(now);
        deliver.accept(kept);
    }

    /** What this history holds for channel after position, for {@link Replay#resume}. */
    public synchronized Replay.View view(String channel, MessageId position) {
        long now = clock.getAsLong();
        forgetQuiet(now);
        long quietSince = Math.max(now - limits.ttlMillis(), forgottenUpTo + 1);
        Channel kept = channels.get(channel);
        if (kept == null) {
            return new Replay.View(epoch, head, false, null, List.of(), quietSince);
        }
        dropOld(kept, now);
        List<PubSub.Message> after = new ArrayList<>();
        if (position != null) {
            for (PubSub.Message message : kept.kept) {
                if (message.id().after(position)) {
                    after.add(message);
                }
            }
        }
        return new Replay.View(epoch, head, true, kept.lastDropped, after, quietSince);
    }

    public Replay resume(String channel, String position) {
        MessageId id = MessageId.parse(position);
        return Replay.resume(id, view(channel, id));
    }

    public String epoch() {
        return epoch;
    }

    /** Channels kept now. */
    public synchronized int channels() {
        forgetQuiet(clock.getAsLong());
        return channels.size();
    }

    private MessageId next(long now) {
        MessageId id = head == null || now > head.millis()
            ? new MessageId(epoch, now, 0)
            : new MessageId(epoch, head.millis(), head.n() + 1); // the same millisecond, or the clock went back
        head = id;
        return id;
    }

    /** Messages past their time leave, counted as dropped. */
    private void dropOld(Channel channel, long now) {
        long oldest = now - limits.ttlMillis();
        while (channel.kept.size() > 1 && channel.kept.peekFirst().id().millis() < oldest) {
            channel.lastDropped = channel.kept.pollFirst().id();
        }
    }

    /** Quiet channels past their time, then the quietest beyond the channel limit, are forgotten. */
    private void forgetQuiet(long now) {
        long oldest = now - limits.ttlMillis();
        for (Iterator<Channel> it = channels.values().iterator(); it.hasNext();) {
            Channel channel = it.next();
            boolean over = channels.size() > limits.channels();
            if (!over && channel.newestMillis() >= oldest) {
                break; // the rest are newer
            }
            if (over && channel.newestMillis() >= oldest) {
                forgottenUpTo = Math.max(forgottenUpTo, channel.newestMillis());
            }
            it.remove();
        }
    }
}
