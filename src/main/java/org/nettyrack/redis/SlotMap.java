package org.nettyrack.redis;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.Connection;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.util.JedisClusterCRC16;

/**
 * A Redis Cluster's layout at one moment: which master owns each of the 16384 slots, as
 * {@code CLUSTER SLOTS} tells it. A channel of sharded pub/sub lives in a slot as a key does
 * (CRC16 of its name, or of its {@code {hash tag}}, mod 16384), and only the slot's master
 * takes its SSUBSCRIBE and SPUBLISH. Immutable; slots no master owns (a cluster that lost
 * one) have none.
 */
final class SlotMap {
    static final int SLOTS = 16_384;

    private final HostAndPort[] owners;

    private SlotMap(HostAndPort[] owners) {
        this.owners = owners;
    }

    /** Asks the node on the other end; JedisException when it cannot or will not say (not in cluster mode). */
    static SlotMap read(Connection connection) {
        Object reply = connection.executeCommand(new CommandArguments(Protocol.Command.CLUSTER).add("SLOTS"));
        return parse(reply, connection.getHostAndPort().getHost());
    }

    /**
     * A CLUSTER SLOTS reply: per range its first and last slot and its master's endpoint
     * (host, port, ...) first, replicas after. An empty host is the asked node's; an unknown
     * one ({@code ?}) leaves the range without an owner until the next look.
     */
    static SlotMap parse(Object reply, String askedHost) {
        HostAndPort[] owners = new HostAndPort[SLOTS];
        if (!(reply instanceof List<?> ranges)) {
            throw new IllegalArgumentException("CLUSTER SLOTS gave " + reply);
        }
        for (Object item : ranges) {
            if (!(item instanceof List<?> range) || range.size() < 3 || !(range.get(2) instanceof List<?> master)
                || master.size() < 2) {
                throw new IllegalArgumentException("CLUSTER SLOTS gave a range without a master: " + item);
            }
            String host = SentinelLookup.text(master.get(0));
            if (host.equals("?")) {
                continue;
            }
            HostAndPort owner = new HostAndPort(host.isEmpty() ? askedHost : host, ((Long) master.get(1)).intValue());
            int first = ((Long) range.get(0)).intValue();
            int last = ((Long) range.get(1)).intValue();
            for (int slot = first; slot <= last; slot++) {
                owners[slot] = owner;
            }
        }
        return new SlotMap(owners);
    }

    static int slot(byte[] channel) {
        return JedisClusterCRC16.getSlot(channel);
    }

    static int slot(String channel) {
        return slot(Subscriptions.bytes(channel));
    }

    /** A short name whose key slot is slot (for keys that must live beside a slot's channels). */
    static String tag(int slot) {
        return Tags.BY_SLOT[slot];
    }

    /** The first decimal number found for each slot; made when first asked (about 180,000 tries). */
    private static final class Tags {
        static final String[] BY_SLOT = new String[16384];

        static {
            int found = 0;
            for (int n = 0; found < BY_SLOT.length; n++) {
                String name = Integer.toString(n);
                int slot = slot(name);
                if (BY_SLOT[slot] == null) {
                    BY_SLOT[slot] = name;
                    found++;
                }
            }
        }
    }

    /** The master owning the slot, or null. */
    HostAndPort owner(int slot) {
        return owners[slot];
    }

    /** Every master that owns a slot, in slot order. */
    Set<HostAndPort> masters() {
        Set<HostAndPort> masters = new LinkedHashSet<>();
        for (HostAndPort owner : owners) {
            if (owner != null) {
                masters.add(owner);
            }
        }
        return masters;
    }

    /** "127.0.0.1:7000 (slots 0-5460), 127.0.0.1:7001 (slots 5461-10922), ...", and the slots without a master. */
    String describe() {
        Map<HostAndPort, List<Integer>> byOwner = new LinkedHashMap<>();
        List<Integer> orphans = new ArrayList<>();
        for (int slot = 0; slot < SLOTS; slot++) {
            if (owners[slot] == null) {
                orphans.add(slot);
            } else {
                byOwner.computeIfAbsent(owners[slot], o -> new ArrayList<>()).add(slot);
            }
        }
        List<String> parts = new ArrayList<>();
        byOwner.forEach((owner, slots) -> parts.add(owner + " (slots " + ranges(slots) + ")"));
        return String.join(", ", parts) + (orphans.isEmpty() ? "" : "; no master for slots " + ranges(orphans));
    }

    /**
     * What changed since {@code before}, or null if nothing did: for each old and new owner,
     * "slots 0-5460 are at 127.0.0.1:7004 (was 127.0.0.1:7001): failed over" (the old owner
     * is no master now) or "...: resharded" (it still is), joined by "; ".
     */
    String changesFrom(SlotMap before) {
        Map<List<HostAndPort>, List<Integer>> moves = new LinkedHashMap<>();
        for (int slot = 0; slot < SLOTS; slot++) {
            if (!Objects.equals(before.owners[slot], owners[slot])) {
                moves.computeIfAbsent(Arrays.asList(before.owners[slot], owners[slot]), m -> new ArrayList<>())
                    .add(slot);
            }
        }
        if (moves.isEmpty()) {
            return null;
        }
        Set<HostAndPort> masters = masters();
        List<String> lines = new ArrayList<>();
        moves.forEach((move, slots) -> {
            HostAndPort was = move.get(0);
            HostAndPort now = move.get(1);
            String where = now == null ? "have no master" : (slots.size() == 1 ? "is" : "are") + " at " + now;
            String why = was == null ? "" : masters.contains(was) ? ": resharded" : ": failed over";
            lines.add((slots.size() == 1 ? "slot " : "slots ") + ranges(slots) + " " + where
                + (was == null ? "" : " (was " + was + ")") + why);
        });
        return String.join("; ", lines);
    }

    /** Ascending slots as "0-5460,5470". */
    private static String ranges(List<Integer> slots) {
        StringBuilder text = new StringBuilder();
        int i = 0;
        while (i < slots.size()) {
            int j = i;
            while (j + 1 < slots.size() && slots.get(j + 1) == slots.get(j) + 1) {
                j++;
            }
            text.append(text.length() == 0 ? "" : ",").append(slots.get(i));
            if (j > i) {
                text.append('-').append(slots.get(j));
            }
            i = j + 1;
        }
        return text.toString();
    }
}
