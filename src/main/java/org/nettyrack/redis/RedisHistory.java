package org.nettyrack.redis;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.nettyrack.core.push.HistoryLimits;
import org.nettyrack.core.push.MemoryHistory;
import org.nettyrack.core.push.MessageId;
import org.nettyrack.core.push.PubSub;
import org.nettyrack.core.push.Replay;
import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.Connection;
import redis.clients.jedis.Protocol;

/**
 * The history of a Redis engine, kept in Redis so every process shares it: each channel's
 * last messages in a stream, and a clock (the epoch and the last id) that orders them. A
 * message is kept and published in one script, so the stream's order is the order
 * subscribers hear, and its id travels with it ({@link Envelope}). Messages beyond the count
 * or older than the time leave with XDEL, which Redis remembers as the stream's
 * {@code max-deleted-entry-id}; a quiet channel's stream expires after the time. Needs Redis 7
 * (that field), and keys that are never evicted. Where the keys live is {@link Keys}'s: one
 * Redis has one clock for every channel; a Cluster one per slot, beside its channels.
 */
final class RedisHistory {
    static final String CLOCK = "nettyrack:history";
    static final String STREAM = "nettyrack:history:";

    /** The keys of a channel's history, and how its messages are published. */
    enum Keys {
        /**
         * One Redis: one clock ({@code nettyrack:history}) orders every channel, so one id
         * resumes every channel of an event stream; streams at {@code nettyrack:history:CHANNEL}.
         */
        ONE("PUBLISH") {
            @Override
            byte[] clock(byte[] channel) {
                return utf8(CLOCK);
            }

            @Override
            byte[] stream(byte[] channel) {
                return concat(utf8(STREAM), channel);
            }

            @Override
            byte[] publisher(byte[] channel, String id) {
                return utf8(CLOCK + ":publisher:" + id);
            }
        },
        /**
         * A Cluster: a script's keys and its shard channel must share a slot, so each slot has
         * its own clock ({@code nettyrack:history:{TAG}}, TAG a name of that slot) and streams
         * at {@code nettyrack:history:{TAG}:CHANNEL}; ids order the channels of one slot only.
         */
        SLOTS("SPUBLISH") {
            @Override
            byte[] clock(byte[] channel) {
                return utf8(CLOCK + ":{" + SlotMap.tag(SlotMap.slot(channel)) + "}");
            }

            @Override
            byte[] stream(byte[] channel) {
                return concat(concat(clock(channel), new byte[] {':'}), channel);
            }

            @Override
            byte[] publisher(byte[] channel, String id) {
                return concat(clock(channel), utf8(":publisher:" + id));
            }
        };

        private final byte[] publish;

        Keys(String publish) {
            this.publish = utf8(publish);
        }

        abstract byte[] clock(byte[] channel);

        abstract byte[] stream(byte[] channel);

        /** Where the last message number a publisher kept (here) is remembered. */
        abstract byte[] publisher(byte[] channel, String id);
    }

    /**
     * KEYS: clock, stream, the publisher's last number. ARGV: channel, data, messages, ttl ms,
     * an epoch for a clock that has none, the publish command, the message's number. A number
     * not above the publisher's last is a message sent again that this Redis already has: 'dup'.
     */
    private static final byte[] KEEP = """
        if tonumber(ARGV[7]) <= tonumber(redis.call('GET', KEYS[3]) or '-1') then
          return 'dup'
        end
        redis.call('SET', KEYS[3], ARGV[7], 'PX', ARGV[4])
        local t = redis.call('TIME')
        local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
        local clock = redis.call('HMGET', KEYS[1], 'epoch', 'ms', 'n')
        local epoch, ms, n = clock[1], tonumber(clock[2]), tonumber(clock[3])
        if not epoch then
          epoch, ms, n = ARGV[5], now, 0
        elseif now > ms then
          ms, n = now, 0
        else
          n = n + 1
        end
        redis.call('HSET', KEYS[1], 'epoch', epoch, 'ms', ms, 'n', n)
        local id = ms .. '-' .. n
        if redis.pcall('XADD', KEYS[2], id, 'd', ARGV[2])['err'] then
          redis.call('DEL', KEYS[2])
          redis.call('XADD', KEYS[2], id, 'd', ARGV[2])
        end
        local len = redis.call('XLEN', KEYS[2])
        local oldest = now - tonumber(ARGV[4])
        while len > 1 do
          local first = redis.call('XRANGE', KEYS[2], '-', '+', 'COUNT', 1)[1][1]
          if len <= tonumber(ARGV[3]) and tonumber(string.match(first, '^(%d+)')) >= oldest then
            break
          end
          redis.call('XDEL', KEYS[2], first)
          len = len - 1
        end
        redis.call('PEXPIRE', KEYS[2], ARGV[4])
        redis.call(ARGV[6], ARGV[1], '\\0nr:' .. epoch .. '-' .. id .. '\\n' .. ARGV[2])
        return epoch .. '-' .. id
        """.getBytes(StandardCharsets.UTF_8);

    /** KEYS: clock, stream. ARGV: the position's stream id, or '' for none. */
    private static final byte[] VIEW = """
        local t = redis.call('TIME')
        local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
        local clock = redis.call('HMGET', KEYS[1], 'epoch', 'ms', 'n')
        local dropped, after = '', {}
        local kept = redis.call('EXISTS', KEYS[2])
        if kept == 1 then
          local info = redis.call('XINFO', 'STREAM', KEYS[2])
          for i = 1, #info, 2 do
            if info[i] == 'max-deleted-entry-id' then dropped = info[i + 1] end
          end
          if ARGV[1] ~= '' then after = redis.call('XRANGE', KEYS[2], '(' .. ARGV[1], '+') end
        end
        return {clock[1] or '', clock[2] or '', clock[3] or '', kept, dropped, now, after}
        """.getBytes(StandardCharsets.UTF_8);

    private final HistoryLimits limits;
    private final Keys keys;
    private final byte[] messages;
    private final byte[] ttl;
    /** This engine, among the publishers of a history. */
    private final String publisher = MemoryHistory.newEpoch();

    RedisHistory(HistoryLimits limits, Keys keys) {
        if (!limits.on()) {
            throw new IllegalArgumentException("a history needs room for 1 message at least");
        }
        this.limits = limits;
        this.keys = keys;
        this.messages = Integer.toString(limits.messages()).getBytes(StandardCharsets.US_ASCII);
        this.ttl = Long.toString(limits.ttlMillis()).getBytes(StandardCharsets.US_ASCII);
    }

    /** The arguments of the EVAL that keeps the message and publishes it with its id. */
    byte[][] keep(PublishQueue.Outgoing message) {
        byte[] channel = message.channel();
        byte[] epoch = MemoryHistory.newEpoch().getBytes(StandardCharsets.US_ASCII); // taken only by a clock that has none
        return new byte[][] {KEEP, utf8("3"), keys.clock(channel), keys.stream(channel), keys.publisher(channel, publisher),
            channel, message.data(), messages, ttl, epoch, keys.publish, utf8(Long.toString(message.seq()))};
    }

    /** Reads what the history holds for channel after position, on connection. */
    Replay.View view(Connection connection, String channel, MessageId position) {
        byte[] channelBytes = Subscriptions.bytes(channel);
        String from = position == null ? "" : position.millis() + "-" + position.n();
        Object reply = connection.executeCommand(new CommandArguments(Protocol.Command.EVAL)
            .add(VIEW).add(2).add(keys.clock(channelBytes)).add(keys.stream(channelBytes)).add(from));
        List<?> parts = (List<?>) reply;
        String epochNow = SentinelLookup.text(parts.get(0));
        MessageId head = epochNow.isEmpty() ? null
            : new MessageId(epochNow, Long.parseLong(SentinelLookup.text(parts.get(1))),
                Long.parseLong(SentinelLookup.text(parts.get(2))));
        boolean kept = ((Long) parts.get(3)) == 1;
        MessageId dropped = streamId(epochNow, SentinelLookup.text(parts.get(4)));
        long now = (Long) parts.get(5);
        List<PubSub.Message> after = new ArrayList<>();
        for (Object entry : (List<?>) parts.get(6)) {
            List<?> fields = (List<?>) entry;
            List<?> values = (List<?>) fields.get(1);
            after.add(PubSub.Message.of(channel, (byte[]) values.get(1))
                .withId(streamId(epochNow, SentinelLookup.text(fields.get(0)))));
        }
        return new Replay.View(epochNow, head, kept, dropped, after, now - limits.ttlMillis());
    }

    /** A stream entry id (MILLIS-N) of the epoch; null for none ("", "0-0"). */
    private static MessageId streamId(String epoch, String id) {
        int dash = id.indexOf('-');
        if (dash < 0 || id.equals("0-0") || epoch.isEmpty()) {
            return null;
        }
        return new MessageId(epoch, Long.parseLong(id.substring(0, dash)), Long.parseLong(id.substring(dash + 1)));
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] joined = new byte[a.length + b.length];
        System.arraycopy(a, 0, joined, 0, a.length);
        System.arraycopy(b, 0, joined, a.length, b.length);
        return joined;
    }
}
