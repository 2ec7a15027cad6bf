package org.nettyrack.redis;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import redis.clients.jedis.Connection;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.exceptions.JedisRedirectionException;

/**
 * SPUBLISH (kept first, with a {@link RedisHistory}) for the {@link ShardWriter} thread: a batch is split by the master that owns each
 * channel's slot (in their order, so a channel's messages keep theirs) and pipelined to each
 * master on a connection of its own. A batch that fails on an old connection is tried once
 * more on a fresh one; what a master cannot take (unreachable, or MOVED: the slot is not its
 * own now) comes back to the writer, to be sent again after it read the layout again.
 */
final class ShardPublisher {
    private final Connector connector;
    private final LinkStatus status;
    private final RedisHistory history; // null: none kept
    private final Map<HostAndPort, Connection> connections = new HashMap<>();
    private boolean rejectedLogged;

    /** history: where messages are kept as they are published, or null. */
    ShardPublisher(Connector connector, LinkStatus status, RedisHistory history) {
        this.connector = connector;
        this.status = status;
        this.history = history;
    }

    /** Sends the batch; returns the messages not delivered, in their order. */
    List<PublishQueue.Outgoing> publish(List<PublishQueue.Outgoing> batch, SlotMap map) {
        Map<HostAndPort, List<PublishQueue.Outgoing>> byMaster = new LinkedHashMap<>();
        List<PublishQueue.Outgoing> undelivered = new ArrayList<>();
        for (PublishQueue.Outgoing message : batch) {
            HostAndPort owner = map.owner(SlotMap.slot(message.channel()));
            if (owner == null) {
                undelivered.add(message);
            } else {
                byMaster.computeIfAbsent(owner, o -> new ArrayList<>()).add(message);
            }
        }
        byMaster.forEach((master, messages) -> undelivered.addAll(publish(master, messages)));
        return undelivered;
    }

    /** Closes the connections to nodes that are no masters now. */
    void retain(Set<HostAndPort> masters) {
        for (HostAndPort node : Set.copyOf(connections.keySet())) {
            if (!masters.contains(node)) {
                close(node);
            }
        }
    }

    void close() {
        Set.copyOf(connections.keySet()).forEach(this::close);
    }

    private List<PublishQueue.Outgoing> publish(HostAndPort master, List<PublishQueue.Outgoing> messages) {
        boolean fresh = !connections.containsKey(master);
        for (int attempt = fresh ? 1 : 0; attempt < 2; attempt++) {
            try {
                Connection connection = connections.computeIfAbsent(master, connector::connect);
                return send(connection, messages);
            } catch (JedisException e) { // cannot connect, or the connection broke
                close(master);
                if (attempt == 1) {
                    status.lost(new JedisConnectionException(master + ": " + LinkStatus.reason(e)));
                }
            }
        }
        return messages;
    }

    private List<PublishQueue.Outgoing> send(Connection connection, List<PublishQueue.Outgoing> messages) {
        for (PublishQueue.Outgoing message : messages) {
            if (history == null) {
                connection.sendCommand(Protocol.Command.SPUBLISH, message.channel(), message.data());
            } else {
                connection.sendCommand(Protocol.Command.EVAL, history.keep(message));
            }
        }
        List<Object> replies = connection.getMany(messages.size());
        List<PublishQueue.Outgoing> undelivered = new ArrayList<>();
        boolean rejected = false;
        for (int i = 0; i < replies.size(); i++) {
            if (replies.get(i) instanceof JedisRedirectionException) {
                undelivered.add(messages.get(i));
            } else if (replies.get(i) instanceof JedisDataException refused) {
                if (!rejectedLogged) {
                    status.log("Redis refused an SPUBLISH" + (history == null ? "" : " with its history")
                        + " (" + refused.getMessage() + ")");
                }
                rejected = true;
            }
        }
        rejectedLogged = rejected;
        return undelivered;
    }

    private void close(HostAndPort node) {
        Connection connection = connections.remove(node);
        if (connection != null) {
            try {
                connection.close();
            } catch (RuntimeException e) {
                // already broken
            }
        }
    }
}
