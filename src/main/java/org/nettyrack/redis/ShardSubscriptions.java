package org.nettyrack.redis;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.nettyrack.core.push.LocalPubSub;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Protocol;

/**
 * Keeps each channel with local subscribers SSUBSCRIBEd on the connection of the master that
 * owns its slot, and no other. Subscribing threads mark a channel {@link #changed}; the
 * {@link ShardWriter} thread, the only one that writes to the subscriber connections, runs
 * {@link #sync} and sends SSUBSCRIBE/SUNSUBSCRIBE for the difference, one command per slot
 * (Redis refuses channels of several slots in one). The {@link ShardListener}s say when their
 * connection is {@link #attach}ed or gone ({@link #detach}), and when Redis dropped a channel
 * by itself ({@link #dropped}: its slot moved) or refused one ({@link #refused}: MOVED); such
 * channels are placed again by the next sync, on the owner the current {@link SlotMap} names.
 */
final class ShardSubscriptions {
    private final LocalPubSub local;
    private final Set<String> dirty = ConcurrentHashMap.newKeySet();
    /** Which connection each channel was sent to (SSUBSCRIBE), until it is taken off. */
    private final ConcurrentHashMap<String, ShardListener> held = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<HostAndPort, ShardListener> attached = new ConcurrentHashMap<>();
    private final AtomicInteger connections = new AtomicInteger();
    // Writer thread only:
    private SlotMap syncedMap;
    private int syncedConnections = -1;

    ShardSubscriptions(LocalPubSub local) {
        this.local = local;
    }

    /** The channel gained its first or lost its last local subscriber. */
    void changed(String channel) {
        dirty.add(channel);
    }

    /** A listener's connection is ready for commands. */
    void attach(ShardListener shard) {
        attached.put(shard.node(), shard);
        connections.incrementAndGet();
    }

    /** A listener's connection is gone; returns the channels it held, which the next sync places again. */
    List<String> detach(ShardListener shard) {
        attached.remove(shard.node(), shard);
        List<String> lost = new ArrayList<>();
        held.forEach((channel, holder) -> {
            if (holder == shard && held.remove(channel, shard)) {
                lost.add(channel);
            }
        });
        dirty.addAll(lost);
        connections.incrementAndGet();
        return lost;
    }

    /**
     * Redis sent SUNSUBSCRIBE for the channel on the shard's connection: true when this engine
     * had not asked for it (the slot moved away), and the next sync places the channel again.
     */
    boolean dropped(ShardListener shard, String channel) {
        if (held.remove(channel, shard)) {
            dirty.add(channel);
            return true;
        }
        return false;
    }

    /** The shard's master refused an SSUBSCRIBE for the slot as not its own (MOVED). */
    void refused(ShardListener shard, int slot) {
        held.forEach((channel, holder) -> {
            if (holder == shard && SlotMap.slot(channel) == slot && held.remove(channel, shard)) {
                dirty.add(channel);
            }
        });
    }

    /** Whether every master of the map has its subscriber connection. */
    boolean covers(SlotMap map) {
        return attached.keySet().containsAll(map.masters());
    }

    /** Writer thread: brings the masters' subscriptions in line with the local subscribers and the map. */
    void sync(SlotMap map) {
        int now = connections.get();
        if (map != syncedMap || now != syncedConnections) { // a new layout or connection: compare every channel
            syncedMap = map;
            syncedConnections = now;
            dirty.addAll(held.keySet());
            dirty.addAll(local.channels());
        }
        if (dirty.isEmpty() || map == null) {
            return;
        }
        Map<ShardListener, Set<String>> subscribe = new LinkedHashMap<>();
        Map<ShardListener, Set<String>> unsubscribe = new LinkedHashMap<>();
        for (Iterator<String> it = dirty.iterator(); it.hasNext();) {
            String channel = it.next();
            it.remove(); // before reading the local state, so a change after this read marks it again
            HostAndPort owner = map.owner(SlotMap.slot(channel));
            ShardListener target = local.subscribers(channel) > 0 && owner != null ? attached.get(owner) : null;
            ShardListener holder = held.get(channel);
            if (holder == target) {
                continue; // in place, or nowhere to go yet: a new connection compares every channel again
            }
            if (holder != null && held.remove(channel, holder)) {
                unsubscribe.computeIfAbsent(holder, h -> new HashSet<>()).add(channel);
            }
            if (target != null) {
                held.put(channel, target);
                subscribe.computeIfAbsent(target, t -> new HashSet<>()).add(channel);
            }
        }
        unsubscribe.forEach((shard, channels) -> send(shard, Protocol.Command.SUNSUBSCRIBE, channels));
        subscribe.forEach((shard, channels) -> send(shard, Protocol.Command.SSUBSCRIBE, channels));
    }

    /** Writer thread: a PING through every subscriber connection, whose reply shows it is alive. */
    void ping() {
        attached.values().forEach(shard -> shard.send(Protocol.Command.PING));
    }

    private static void send(ShardListener shard, Protocol.Command command, Set<String> channels) {
        Map<Integer, List<String>> bySlot = new TreeMap<>();
        for (String channel : channels) {
            bySlot.computeIfAbsent(SlotMap.slot(channel), s -> new ArrayList<>()).add(channel);
        }
        for (List<String> slotChannels : bySlot.values()) {
            for (byte[][] chunk : Subscriptions.chunks(slotChannels)) {
                shard.send(command, chunk);
            }
        }
    }
}
