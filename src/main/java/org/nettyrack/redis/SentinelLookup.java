package org.nettyrack.redis;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.Connection;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisException;

/**
 * Where the master of a {@link SentinelUrl} is now: asks its sentinels in turn
 * ({@code SENTINEL get-master-addr-by-name}), starting with the last one that answered, before
 * each new connection. When the answer differs from the last, one line says so:
 *
 * <pre>
 * nettyrack: pubsub: master mymaster is at 127.0.0.1:6380
 * nettyrack: pubsub: master mymaster is at 127.0.0.1:6381 (was 127.0.0.1:6380): failed over
 * </pre>
 *
 * After a failover Sentinel makes the old master's clients disconnect; the engine's two
 * connections then reconnect, and each asks here again.
 */
final class SentinelLookup {
    private final SentinelUrl url;
    private final JedisClientConfig config;
    private final LinkStatus status;
    private int first;
    private HostAndPort last;

    /** config: how to talk to a sentinel; status: where a change of master is said. */
    SentinelLookup(SentinelUrl url, JedisClientConfig config, LinkStatus status) {
        this.url = url;
        this.config = config;
        this.status = status;
    }

    /** The master's address; JedisConnectionException naming every sentinel's trouble when none knows it. */
    synchronized HostAndPort master() {
        List<String> trouble = new ArrayList<>();
        List<Address> sentinels = url.sentinels();
        for (int i = 0; i < sentinels.size(); i++) {
            int index = (first + i) % sentinels.size();
            Address sentinel = sentinels.get(index);
            try {
                HostAndPort master = ask(sentinel);
                if (master == null) {
                    trouble.add(sentinel + " knows no master " + url.master());
                    continue;
                }
                first = index;
                found(master);
                return master;
            } catch (JedisException e) {
                trouble.add(sentinel + ": " + LinkStatus.reason(e));
            }
        }
        throw new JedisConnectionException("no sentinel gave the master " + url.master() + " (" + String.join("; ", trouble) + ")");
    }

    private HostAndPort ask(Address sentinel) {
        try (Connection connection = new Connection(sentinel.hostAndPort(), config)) {
            Object reply = connection.executeCommand(new CommandArguments(Protocol.Command.SENTINEL)
                .add("get-master-addr-by-name").add(url.master()));
            if (!(reply instanceof List<?> parts) || parts.size() != 2) {
                return null;
            }
            return new HostAndPort(text(parts.get(0)), Integer.parseInt(text(parts.get(1))));
        }
    }

    private void found(HostAndPort master) {
        if (master.equals(last)) {
            return;
        }
        status.log("master " + url.master() + " is at " + master + (last == null ? "" : " (was " + last + "): failed over"));
        last = master;
    }

    /** A reply's bulk string (RESP2 gives bytes) as text. */
    static String text(Object part) {
        return part instanceof byte[] bytes ? new String(bytes, StandardCharsets.UTF_8) : String.valueOf(part);
    }
}
